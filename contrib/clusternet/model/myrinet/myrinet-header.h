// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_MYRINET_HEADER_H
#define CLUSTERNET_MYRINET_HEADER_H

#include "ns3/header.h"

#include <cstdint>
#include <vector>

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief The head of a Myrinet packet: one route byte per switch still to cross, then the
 * 16-bit packet type.
 *
 * A route byte has its most significant bit set and names the output port of the switch it
 * is consumed by (0x80 | port); each switch strips the first one. The type's first byte has the
 * most significant bit clear, which is how the end of the route is found (ANSI/VITA 26-1998).
 */
class MyrinetHeader : public Header
{
  public:
    static constexpr uint8_t ROUTE_FLAG = 0x80; //!< marks a route byte
    static constexpr uint16_t TYPE_SIZE = 2;    //!< packet type field [bytes]

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    MyrinetHeader();
    /// A header with the output ports of the switches to cross, in order, and the type.
    MyrinetHeader(const std::vector<uint8_t>& ports, uint16_t type);

    /// @return the output ports still to take, first switch first
    std::vector<uint8_t> GetRoute() const;
    /// @return the packet type
    uint16_t GetType() const;
    /// Remove the first route byte (what a switch does). @return the port it named
    uint8_t PopRoute();

    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

  private:
    std::vector<uint8_t> m_route; //!< output ports (without the flag)
    uint16_t m_type;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_MYRINET_HEADER_H
