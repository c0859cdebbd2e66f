// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_NETPIPE_APPLICATION_H
#define CLUSTERNET_NETPIPE_APPLICATION_H

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/nstime.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{
namespace clusternet
{

class HostCpu;

/**
 * @ingroup clusternet
 * @brief NetPIPE 2.3 in TCP mode: a ping-pong of growing blocks between a transmitter and a
 * receiver, each block timed over repeated round trips.
 *
 * Block sizes follow NetPIPE: 1, 2, 3, then alternately doubling steps (4, 6, 8, 12, 16, ...),
 * each with -3/+3 byte perturbations once above 4 bytes. For each block the transmitter runs
 * one untimed warm-up round trip, then Trials timings of n round trips (n chosen so a timing
 * lasts about RunTime, as NetPIPE's nrepeat) and keeps the fastest; one-way time is half the
 * round trip. The run stops after MaxBlock or when one transfer takes longer than StopTime.
 *
 * Host costs are charged on the node's HostCpu: one system call per write() of a block plus the
 * copy of each chunk into the socket, and one system call plus the copy per read(). The per-size
 * repeat count travels to the receiver out of band (NetPIPE exchanges it untimed as well).
 */
class NetpipeApplication : public Application
{
  public:
    /// One measured block size.
    struct Sample
    {
        uint32_t bytes;  //!< block size
        Time oneWay;     //!< one-way time (half the fastest round trip)
        uint32_t repeats; //!< round trips per timing
    };

    /// Signature of the Sample trace: a block size [bytes] and its one-way time.
    typedef void (*SampleCallback)(uint32_t bytes, Time oneWay);

    static TypeId GetTypeId();
    NetpipeApplication();
    ~NetpipeApplication() override;

    /// @return NetPIPE's block sizes up to @p maxBlock with +-@p pert perturbations
    static std::vector<uint32_t> BlockSizes(uint32_t maxBlock, uint32_t pert = 3);

    /// Transmitter only: the receiving application, told each block size and repeat count.
    void SetPeerApplication(Ptr<NetpipeApplication> peer);
    /// @return the samples measured so far (transmitter)
    const std::vector<Sample>& GetSamples() const;
    /// @return true once the transmitter finished its schedule
    bool IsDone() const;
    /// Transmitter only: called when the schedule is finished.
    void SetDoneCallback(Callback<void> done);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    // connection
    void ConnectionSucceeded(Ptr<Socket> s);
    void ConnectionFailed(Ptr<Socket> s);
    bool AcceptRequest(Ptr<Socket> s, const Address& from);
    void NewConnection(Ptr<Socket> s, const Address& from);
    // data
    void ExpectBlock(uint32_t bytes);
    void SendBlock(uint32_t bytes);
    void WriteMore(Ptr<Socket> s, uint32_t available);
    void WriteChunkDone(uint32_t chunk);
    void DataArrived(Ptr<Socket> s);
    void ReadDone(uint32_t bytes);
    void BlockReceived();
    // transmitter schedule
    void StartSize();
    void StartTiming();
    void RoundTripDone();

    enum Role
    {
        TRANSMITTER,
        RECEIVER,
    };

    Role m_role;
    Address m_peer;
    uint16_t m_port;
    uint32_t m_sockBuf;
    uint32_t m_maxBlock;
    uint32_t m_writeChunk;
    Time m_runTime;
    Time m_stopTime;
    uint32_t m_trials;
    uint32_t m_maxRepeats;

    Ptr<Socket> m_socket;   //!< listening (receiver) or connected (transmitter) socket
    Ptr<Socket> m_conn;     //!< data socket
    Ptr<HostCpu> m_cpu;
    Ptr<NetpipeApplication> m_peerApp;

    // transfer state
    uint32_t m_toWrite{0};   //!< bytes of the current block not yet copied into the socket
    bool m_writing{false};   //!< a copy into the socket is in progress
    uint32_t m_toRead{0};    //!< bytes of the current block not yet read
    bool m_reading{false};   //!< a read() is in progress
    uint32_t m_blockBytes{0};

    // transmitter schedule state
    std::vector<uint32_t> m_sizes;
    std::size_t m_sizeIndex{0};
    uint32_t m_repeats{1};
    uint32_t m_roundTripsLeft{0};
    uint32_t m_trialsLeft{0};
    bool m_warmup{false};
    Time m_timingStart;
    Time m_best;
    Time m_last;
    bool m_done{false};
    std::vector<Sample> m_samples;
    Callback<void> m_doneCallback;

    TracedCallback<uint32_t, Time> m_sampleTrace; //!< block size, one-way time
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_NETPIPE_APPLICATION_H
