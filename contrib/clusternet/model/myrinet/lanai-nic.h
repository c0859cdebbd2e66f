// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_LANAI_NIC_H
#define CLUSTERNET_LANAI_NIC_H

#include "ns3/pci-bus.h"

#include "ns3/callback.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <list>
#include <unordered_map>

namespace ns3
{
namespace clusternet
{

class MyrinetNetDevice;

/**
 * @ingroup clusternet
 * @brief The hardware of a Myricom LANai host adapter (LANai 4.x, 7.2, 9): a RISC processor
 * that runs the control program, on-board SRAM holding packet buffers, and the host DMA engine
 * that moves data between host memory and SRAM over the PCI bus. The send and receive DMA
 * engines of the packet interface are the MyrinetNetDevice port.
 *
 * The processor serves control-program work items one at a time, in order, each a number of
 * processor cycles at Clock. The host DMA engine serves transfers one at a time, in order,
 * reads (host -> SRAM) and writes (SRAM -> host) alike; it runs concurrently with the
 * processor and the packet interface, so the host memory -> PCI -> SRAM -> wire -> SRAM ->
 * PCI -> host pipeline overlaps fragment by fragment wherever buffers allow. Host DMA
 * addresses are translated by the control program through a cache of page translations in
 * SRAM; a miss reads the entry from the host's page table over PCI and costs processor work.
 *
 * The packet buffers in SRAM bound what is in flight: a send buffer holds a packet from its
 * host DMA until it has left the wire; a receive buffer holds an arriving packet until its
 * data has been written to the host. With no receive buffer free the packet interface stops
 * accepting bytes, and the link's STOP/GO flow control back-pressures the fabric.
 */
class LanaiNic : public Object
{
  public:
    /// Signature of the DmaStart trace: bytes and direction (PciBus::Direction).
    typedef void (*DmaTracedCallback)(uint32_t bytes, uint8_t direction);

    static TypeId GetTypeId();
    LanaiNic();
    ~LanaiNic() override;

    /// Attach the packet interface: a host port of the Myrinet fabric (a MyrinetNetDevice; a
    /// device of another kind aborts).
    void SetPort(Ptr<NetDevice> port);
    /// @return the packet interface
    Ptr<MyrinetNetDevice> GetPort() const;
    /// Attach the host's PCI bus (null: host DMA takes no bus time).
    void SetBus(Ptr<PciBus> bus);
    /// @return the host's PCI bus
    Ptr<PciBus> GetBus() const;

    /// @return the time @p cycles processor cycles take at Clock
    Time Cycles(uint64_t cycles) const;
    /// Queue control-program work of @p cycles processor cycles; @p done runs when it ends.
    void Execute(uint64_t cycles, Callback<void> done);

    /**
     * Queue a host DMA transfer.
     * @param bytes bytes to move (0: only the address translation)
     * @param dir PciBus::DMA_READ (host memory -> SRAM) or PciBus::DMA_WRITE (SRAM -> host)
     * @param page host page number of the transfer's first byte (address / 4096)
     * @param done called when the last byte has crossed the bus
     */
    void HostDma(uint32_t bytes, PciBus::Direction dir, uint64_t page, Callback<void> done);

    /// @return send buffers free in SRAM
    uint32_t GetFreeSendBuffers() const;
    /// Take a send buffer (one must be free).
    void TakeSendBuffer();
    /// Return a send buffer.
    void ReleaseSendBuffer();
    /// A packet has arrived into a receive buffer; stop the packet interface if none is left.
    void TakeReceiveBuffer();
    /// A receive buffer is free again; restart the packet interface if it was stopped.
    void ReleaseReceiveBuffer();
    /// @return receive buffers free in SRAM
    uint32_t GetFreeReceiveBuffers() const;
    /// @return the size of one packet buffer [bytes]
    uint32_t GetBufferSize() const;

    /// @return "" if the buffers fit the SRAM, else one line naming the attribute
    std::string CheckConfiguration() const;
    /**
     * The same check on values (before a LanaiNic exists): firmware and packet buffers must fit
     * the SRAM. Arguments are the attributes of the same names [bytes, buffers].
     * @return "" or one line naming the attributes and the sizes
     */
    static std::string CheckSram(uint32_t sramSize,
                                 uint32_t firmwareSize,
                                 uint32_t bufferSize,
                                 uint32_t sendBuffers,
                                 uint32_t receiveBuffers);

    /// @return total processor busy time so far
    Time GetProcessorBusyTime() const;
    /// @return bytes moved by the host DMA engine so far
    uint64_t GetDmaBytes() const;
    /// @return address-translation misses so far
    uint64_t GetTranslationMisses() const;
    /// Forget all cached address translations (a freshly loaded control program).
    void FlushTranslations();

  protected:
    void DoDispose() override;

  private:
    struct Job
    {
        Time cost;
        Callback<void> done;
    };

    struct Dma
    {
        uint32_t bytes;
        PciBus::Direction dir;
        uint64_t page;
        Callback<void> done;
    };

    void StartJob();
    void JobDone();
    void StartDma();
    void DmaTranslated();
    void DmaDone();
    bool Translate(uint64_t page);

    Ptr<MyrinetNetDevice> m_port;
    Ptr<PciBus> m_bus;

    std::deque<Job> m_jobs;
    bool m_cpuBusy{false};
    Time m_busyTime;

    std::deque<Dma> m_dmas;
    bool m_dmaBusy{false};
    uint64_t m_dmaBytes{0};

    std::list<uint64_t> m_lru;                                             //!< most recent first
    std::unordered_map<uint64_t, std::list<uint64_t>::iterator> m_translations; //!< page -> LRU slot
    uint64_t m_misses{0};

    uint32_t m_usedSend{0}; //!< send buffers holding a packet
    uint32_t m_usedRecv{0}; //!< receive buffers holding a packet
    bool m_rxStopped{false};

    uint32_t m_clockMhz;
    uint32_t m_sramSize;
    uint32_t m_firmwareSize;
    uint32_t m_bufferSize;
    uint32_t m_sendBuffers;
    uint32_t m_recvBuffers;
    uint32_t m_dmaBurst;
    Time m_dmaStart;
    uint32_t m_translationEntries;
    uint32_t m_translationEntryBytes;
    uint32_t m_missCycles;

    TracedCallback<uint32_t, uint8_t> m_dmaTrace; //!< a host DMA transfer starts
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_LANAI_NIC_H
