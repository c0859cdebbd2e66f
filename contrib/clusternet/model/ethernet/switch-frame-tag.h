// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_SWITCH_FRAME_TAG_H
#define CLUSTERNET_SWITCH_FRAME_TAG_H

#include "ns3/tag.h"

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief Packet tag a GigeSwitchNetDevice puts on a forwarded frame: the identifier of the
 * buffer space it holds on its ingress port, released when the egress port has sent it.
 */
class SwitchFrameTag : public Tag
{
  public:
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    SwitchFrameTag() = default;
    /// @param id the switch's identifier of the held frame
    explicit SwitchFrameTag(uint64_t id);

    /// @return the identifier of the held frame
    uint64_t GetId() const;

    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer i) const override;
    void Deserialize(TagBuffer i) override;
    void Print(std::ostream& os) const override;

  private:
    uint64_t m_id{0}; //!< identifier of the held frame
};

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_SWITCH_FRAME_TAG_H
