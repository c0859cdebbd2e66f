// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_MYRINET_TRAILER_H
#define CLUSTERNET_MYRINET_TRAILER_H

#include "ns3/packet.h"
#include "ns3/trailer.h"

#include <cstdint>

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief The CRC-8 that ends every Myrinet packet, computed over the whole packet before it
 * (route, type, payload) with the polynomial x^8 + x^2 + x + 1. A switch that strips a route
 * byte updates it (StripFirstByte), so a packet arriving intact at a host checks over type and
 * payload.
 */
class MyrinetTrailer : public Trailer
{
  public:
    static constexpr uint32_t SIZE = 1; //!< [bytes]

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    MyrinetTrailer();

    /// Set the CRC from @p p (everything the trailer follows).
    void Compute(Ptr<const Packet> p);
    /**
     * Update the CRC for the packet without its first byte, as a switch stripping a route byte
     * does: the CRC Compute would give over the @p rest bytes left if this one matched the
     * packet before, and still a mismatch if it did not (at the cost of a few table steps).
     * @param first the byte removed
     * @param rest bytes left after it (up to the trailer)
     */
    void StripFirstByte(uint8_t first, uint32_t rest);
    /// @return true if the CRC matches @p p
    bool Check(Ptr<const Packet> p) const;
    /// @return the CRC-8 value
    uint8_t GetCrc() const;
    /// @return the CRC-8 of @p size bytes at @p data
    static uint8_t Crc8(const uint8_t* data, uint32_t size);

    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator end) override;

  private:
    uint8_t m_crc;
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_MYRINET_TRAILER_H
