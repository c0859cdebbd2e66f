// SPDX-License-Identifier: GPL-2.0-only
#include "myrinet-clos-topology.h"

#include "myrinet-helper.h"

#include "ns3/log.h"
#include "ns3/mac48-address.h"
#include "ns3/myrinet-net-device.h"
#include "ns3/node.h"

#include <memory>
#include <unordered_map>

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("MyrinetClosTopology");
NS_OBJECT_ENSURE_REGISTERED(MyrinetClosTopology);

TypeId
MyrinetClosTopology::GetTypeId()
{
    static TypeId tid = TypeId("ns3::clusternet::MyrinetClosTopology")
                            .SetParent<MyrinetTopology>()
                            .SetGroupName("Clusternet")
                            .AddConstructor<MyrinetClosTopology>();
    return tid;
}

bool
MyrinetClosTopology::Fits(uint32_t hosts) const
{
    return Levels(hosts) > 0;
}

namespace
{
constexpr uint32_t HALF = 8; //!< XBar16: 8 ports down, 8 up

uint32_t
Pow8(uint32_t e)
{
    uint32_t v = 1;
    for (uint32_t i = 0; i < e; ++i)
    {
        v *= HALF;
    }
    return v;
}

/// Digit @p i of @p v in base 8.
uint32_t
Digit(uint32_t v, uint32_t i)
{
    return (v / Pow8(i)) % HALF;
}
} // namespace

uint32_t
MyrinetClosTopology::Levels(uint32_t hosts)
{
    for (uint32_t levels = 1; levels <= 4; ++levels)
    {
        if (hosts == 2 * Pow8(levels))
        {
            return levels;
        }
    }
    return 0;
}

std::vector<uint8_t>
MyrinetClosTopology::Route(uint32_t levels, uint32_t src, uint32_t dst)
{
    NS_ASSERT(levels >= 1 && src != dst);
    if (levels == 1)
    {
        return {static_cast<uint8_t>(dst)};
    }
    const uint32_t m = levels - 1;         // levels inside a pod
    const uint32_t perPod = Pow8(m);       // hosts per pod
    uint32_t srcLeaf = (src % perPod) / HALF;
    uint32_t dstLeaf = (dst % perPod) / HALF;
    bool samePod = src / perPod == dst / perPod;
    // Level of the lowest common ancestor inside the pod (m: the top level, across pods).
    uint32_t top = m;
    if (samePod)
    {
        top = 0;
        for (uint32_t i = 0; i + 1 < m; ++i)
        {
            if (Digit(srcLeaf, i) != Digit(dstLeaf, i))
            {
                top = i + 1;
            }
        }
    }
    std::vector<uint8_t> route;
    for (uint32_t l = 0; l < top; ++l)
    {
        route.push_back(static_cast<uint8_t>(HALF + Digit(dst, l)));
    }
    if (!samePod)
    {
        route.push_back(static_cast<uint8_t>(dst / perPod)); // top switch down to the pod
        top = m - 1;
    }
    for (uint32_t l = top; l >= 1; --l)
    {
        route.push_back(static_cast<uint8_t>(Digit(dstLeaf, l - 1)));
    }
    route.push_back(static_cast<uint8_t>(dst % HALF));
    return route;
}

NetDeviceContainer
MyrinetClosTopology::Install(MyrinetHelper& helper,
                             const NodeContainer& hosts,
                             NodeContainer& switches) const
{
    NetDeviceContainer ports;
    uint32_t levels = Levels(hosts.GetN());
    if (levels == 0)
    {
        return ports;
    }
    if (levels == 1)
    {
        Ptr<Node> sw = CreateObject<Node>();
        switches.Add(sw);
        ports = helper.InstallSwitch(sw, hosts);
        return ports;
    }
    const uint32_t m = levels - 1;
    const uint32_t perPod = Pow8(m);
    const uint32_t perLevel = Pow8(m - 1); // switches per pod level
    const uint32_t pods = 2 * HALF;
    // pod[p][l][w]: the switch node at level l, label w, of pod p.
    std::vector<std::vector<NodeContainer>> pod(pods, std::vector<NodeContainer>(m));
    // down[p][l][w][i], up[...][j]: its ports.
    auto port = [&helper](Ptr<Node> n) { return helper.CreateSwitchPort(n); };
    std::vector<std::vector<std::vector<std::vector<Ptr<MyrinetNetDevice>>>>> dev(
        pods,
        std::vector<std::vector<std::vector<Ptr<MyrinetNetDevice>>>>(m));
    for (uint32_t p = 0; p < pods; ++p)
    {
        for (uint32_t l = 0; l < m; ++l)
        {
            pod[p][l].Create(perLevel);
            switches.Add(pod[p][l]);
            for (uint32_t w = 0; w < perLevel; ++w)
            {
                std::vector<Ptr<MyrinetNetDevice>> d;
                for (uint32_t i = 0; i < 2 * HALF; ++i)
                {
                    d.push_back(port(pod[p][l].Get(w))); // ports 0..7 down, 8..15 up
                }
                dev[p][l].push_back(d);
            }
        }
        // Hosts on the leaves.
        for (uint32_t q = 0; q < perPod; ++q)
        {
            Ptr<MyrinetNetDevice> h = helper.CreateHostPort(hosts.Get(p * perPod + q));
            helper.Link(h, dev[p][0][q / HALF][q % HALF]);
            ports.Add(h);
        }
        // Level l up port j -> level l+1 switch with digit l replaced by j, down port digit l.
        for (uint32_t l = 0; l + 1 < m; ++l)
        {
            for (uint32_t w = 0; w < perLevel; ++w)
            {
                for (uint32_t j = 0; j < HALF; ++j)
                {
                    uint32_t up = w - Digit(w, l) * Pow8(l) + j * Pow8(l);
                    helper.Link(dev[p][l][w][HALF + j], dev[p][l + 1][up][Digit(w, l)]);
                }
            }
        }
    }
    // Top level: switch s * 8 + j joins up port j of pod-top switch s of every pod.
    NodeContainer spine;
    spine.Create(perPod);
    switches.Add(spine);
    for (uint32_t t = 0; t < perPod; ++t)
    {
        std::vector<Ptr<MyrinetNetDevice>> down;
        for (uint32_t p = 0; p < pods; ++p)
        {
            down.push_back(port(spine.Get(t)));
        }
        for (uint32_t p = 0; p < pods; ++p)
        {
            helper.Link(dev[p][m - 1][t / HALF][HALF + t % HALF], down[p]);
        }
    }
    // Routes on demand: address -> host index, shared by every host.
    auto index = std::make_shared<std::unordered_map<uint64_t, uint32_t>>();
    auto key = [](Mac48Address a) {
        uint8_t b[6];
        a.CopyTo(b);
        uint64_t k = 0;
        for (uint8_t x : b)
        {
            k = (k << 8) | x;
        }
        return k;
    };
    for (uint32_t i = 0; i < ports.GetN(); ++i)
    {
        (*index)[key(Mac48Address::ConvertFrom(ports.Get(i)->GetAddress()))] = i;
    }
    for (uint32_t i = 0; i < ports.GetN(); ++i)
    {
        DynamicCast<MyrinetNetDevice>(ports.Get(i))
            ->SetRouteCallback([index, key, levels, i](Mac48Address dest, std::vector<uint8_t>& r) {
                auto it = index->find(key(dest));
                if (it == index->end() || it->second == i)
                {
                    return false;
                }
                r = Route(levels, i, it->second);
                return true;
            });
    }
    return ports;
}

} // namespace clusternet
} // namespace ns3
