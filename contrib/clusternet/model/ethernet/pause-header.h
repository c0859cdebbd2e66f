// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_PAUSE_HEADER_H
#define CLUSTERNET_PAUSE_HEADER_H

#include "ns3/header.h"
#include "ns3/mac48-address.h"

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief IEEE 802.3x MAC Control PAUSE body: opcode 0x0001 and the pause time in quanta
 * of 512 bit times, padded to the 46-byte minimum payload.
 *
 * It follows an EthernetHeader with EtherType 0x8808 sent to the reserved multicast address
 * 01-80-C2-00-00-01.
 */
class PauseHeader : public Header
{
  public:
    static constexpr uint16_t ETHERTYPE = 0x8808;   //!< MAC Control EtherType
    static constexpr uint16_t OPCODE_PAUSE = 0x0001; //!< PAUSE opcode
    static constexpr uint32_t BODY_SIZE = 46;       //!< opcode, quanta, reserved padding
    static constexpr uint32_t QUANTUM_BITS = 512;   //!< bit times per pause quantum

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    PauseHeader();
    /// @param quanta pause time in units of 512 bit times (0 = resume)
    explicit PauseHeader(uint16_t quanta);

    /// @return the reserved destination of PAUSE frames, 01-80-C2-00-00-01
    static Mac48Address GetPauseAddress();

    void SetQuanta(uint16_t quanta);
    uint16_t GetQuanta() const;
    uint16_t GetOpcode() const;

    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

  private:
    uint16_t m_opcode;
    uint16_t m_quanta;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_PAUSE_HEADER_H
