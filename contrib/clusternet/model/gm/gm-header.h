// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_GM_HEADER_H
#define CLUSTERNET_GM_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief The header of a GM packet inside a Myrinet packet: a data fragment of a message or
 * the acknowledgement of one.
 *
 * Layout (20 bytes, network order): kind (1), source port (1), destination port (1), flags (1),
 * source node id (2), destination node id (2), sequence number (4), message length (4),
 * fragment offset (4). Sequence numbers count packets per (source node, destination node)
 * connection; an ACK carries the sequence number it acknowledges.
 */
class GmHeader : public Header
{
  public:
    /// What the packet is.
    enum Kind : uint8_t
    {
        DATA = 1, //!< a fragment of a message
        ACK = 2,  //!< acknowledges one DATA packet
        NACK = 3, //!< the receiver dropped a DATA packet: resend from this sequence number
    };

    static constexpr uint16_t MYRINET_TYPE = 0x0008; //!< Myrinet packet type carrying GM
    static constexpr uint32_t SIZE = 20;              //!< serialized size [bytes]

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    GmHeader();

    void SetKind(Kind kind);
    Kind GetKind() const;
    void SetSourcePort(uint8_t port);
    uint8_t GetSourcePort() const;
    void SetDestinationPort(uint8_t port);
    uint8_t GetDestinationPort() const;
    void SetSourceNode(uint16_t node);
    uint16_t GetSourceNode() const;
    void SetDestinationNode(uint16_t node);
    uint16_t GetDestinationNode() const;
    void SetSequence(uint32_t seq);
    uint32_t GetSequence() const;
    void SetMessageLength(uint32_t bytes);
    uint32_t GetMessageLength() const;
    void SetOffset(uint32_t offset);
    uint32_t GetOffset() const;

    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

  private:
    Kind m_kind{DATA};
    uint8_t m_srcPort{0};
    uint8_t m_dstPort{0};
    uint16_t m_srcNode{0};
    uint16_t m_dstNode{0};
    uint32_t m_seq{0};
    uint32_t m_msgLength{0};
    uint32_t m_offset{0};
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_GM_HEADER_H
