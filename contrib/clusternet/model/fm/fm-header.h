// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_FM_HEADER_H
#define CLUSTERNET_FM_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief The 32-byte header of a Fast Messages packet (seed 004 sec. 3: 2048 bytes of data
 * and a header make a 2080-byte packet).
 *
 * Layout (32 bytes, network order): kind (1), handler (1), source context (1), destination
 * context (1), source node (2), destination node (2), message id (4), message length (4),
 * offset of this packet's data in the message (4), payload bytes (2), credits returned to the
 * destination (2), program id (4), 4 bytes reserved. Every packet, full or partial, uses one
 * credit of its sender; CREDIT packets return credits only and use none.
 */
class FmHeader : public Header
{
  public:
    /// What the packet is.
    enum Kind : uint8_t
    {
        DATA = 1,   //!< a piece of a message
        CREDIT = 2, //!< a credit refill (no data)
    };

    static constexpr uint16_t MYRINET_TYPE = 0x0009; //!< Myrinet packet type carrying FM
    static constexpr uint32_t SIZE = 32;              //!< serialized size [bytes]

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    FmHeader();

    void SetKind(Kind kind);
    Kind GetKind() const;
    void SetHandler(uint8_t handler);
    uint8_t GetHandler() const;
    void SetSourceContext(uint8_t ctx);
    uint8_t GetSourceContext() const;
    void SetDestinationContext(uint8_t ctx);
    uint8_t GetDestinationContext() const;
    void SetSourceNode(uint16_t node);
    uint16_t GetSourceNode() const;
    void SetDestinationNode(uint16_t node);
    uint16_t GetDestinationNode() const;
    void SetMessageId(uint32_t id);
    uint32_t GetMessageId() const;
    void SetMessageLength(uint32_t bytes);
    uint32_t GetMessageLength() const;
    void SetOffset(uint32_t offset);
    uint32_t GetOffset() const;
    void SetPayload(uint16_t bytes);
    uint16_t GetPayload() const;
    void SetCredits(uint16_t credits);
    uint16_t GetCredits() const;

    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

  private:
    Kind m_kind{DATA};
    uint8_t m_handler{0};
    uint8_t m_srcCtx{0};
    uint8_t m_dstCtx{0};
    uint16_t m_srcNode{0};
    uint16_t m_dstNode{0};
    uint32_t m_msgId{0};
    uint32_t m_msgLength{0};
    uint32_t m_offset{0};
    uint16_t m_payload{0};
    uint16_t m_credits{0};
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_FM_HEADER_H
