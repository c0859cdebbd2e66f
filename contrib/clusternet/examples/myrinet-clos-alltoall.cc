// SPDX-License-Identifier: GPL-2.0-only
//
// All-to-all over a full-bisection Clos of XBar16 Myrinet switches, at the wire level: every
// host sends --msg bytes to every other host as packets of at most --packet bytes (GM's 4 KB
// fragments), destinations in a shifted order (host i sends to i+1, i+2, ...). A benchmark of
// the wormhole model: it prints simulated time, wall time, events, events per second and peak
// memory, and checks the fabric lost nothing.
//
//   ./build/examples/myrinet-clos-alltoall --hosts=128 --msg=65536

#include "ns3/clusternet-module.h"
#include "ns3/core-module.h"
#include "ns3/network-module.h"

#include <chrono>
#include <iomanip>
#include <iostream>
#include <sys/resource.h>

using namespace ns3;
using namespace ns3::clusternet;

int
main(int argc, char** argv)
{
    ScenarioArgs args("myrinet-clos-alltoall",
                      "All-to-all of --msg bytes between every pair of hosts of an XBar16 Clos "
                      "(wire level, packets of --packet bytes); prints wall time, events/s, "
                      "peak memory and lossless-fabric checks.");
    args.Add("hosts", "hosts [16, 128, 1024 or 8192: 16 x 8^(levels-1)]", "128");
    args.Add("msg", "bytes each host sends to each other host [bytes, 1-16777216]", "65536");
    args.Add("packet", "largest packet payload [bytes, 1-65535] (GM: 4096)", "4096");
    args.Parse(argc, argv);
    uint32_t n = args.GetUint("hosts", 16, 8192, "hosts");
    uint32_t msg = args.GetUint("msg", 1, 1u << 24, "bytes");
    uint32_t packet = args.GetUint("packet", 1, 65535, "bytes");
    if (MyrinetHelper::ClosLevels(n) == 0)
    {
        args.Fail("--hosts: " + std::to_string(n) +
                  " is not a size the XBar16 Clos rule builds; allowed 16, 128, 1024, 8192");
    }

    auto wall0 = std::chrono::steady_clock::now();
    MyrinetHelper helper;
    NodeContainer hosts(n);
    NodeContainer switches;
    NetDeviceContainer ports = helper.InstallClos(hosts, switches);
    uint32_t perMsg = (msg + packet - 1) / packet;
    // Each host queues its packets in destination order; the port sends them one by one.
    for (uint32_t i = 0; i < n; ++i)
    {
        Ptr<NetDevice> src = ports.Get(i);
        src->SetAttribute("MaxQueue", UintegerValue(perMsg * (n - 1)));
        for (uint32_t s = 1; s < n; ++s)
        {
            Address dst = ports.Get((i + s) % n)->GetAddress();
            for (uint32_t f = 0; f < perMsg; ++f)
            {
                uint32_t size = std::min(packet, msg - f * packet);
                src->Send(Create<Packet>(size), dst, 1);
            }
        }
    }
    auto wall1 = std::chrono::steady_clock::now();
    Simulator::Run();
    auto wall2 = std::chrono::steady_clock::now();
    uint64_t events = Simulator::GetEventCount();
    Time simEnd = Simulator::Now();

    uint64_t tx = 0;
    uint64_t rx = 0;
    uint64_t rxPackets = 0;
    uint64_t stops = 0;
    uint64_t overflows = 0;
    uint64_t drops = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        auto d = DynamicCast<MyrinetNetDevice>(ports.Get(i));
        tx += d->GetTxPackets();
        rx += d->GetRxBytes();
        rxPackets += d->GetRxPackets();
        drops += d->GetDropCount();
    }
    for (uint32_t s = 0; s < switches.GetN(); ++s)
    {
        Ptr<MyrinetSwitch> sw = switches.Get(s)->GetObject<MyrinetSwitch>();
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            stops += sw->GetPort(p)->GetStopCount();
            overflows += sw->GetPort(p)->GetOverflowCount();
        }
    }
    Simulator::Destroy();
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double build = std::chrono::duration<double>(wall1 - wall0).count();
    double run = std::chrono::duration<double>(wall2 - wall1).count();
    uint64_t expectPackets = uint64_t(n) * (n - 1) * perMsg;
    std::cout << std::fixed << std::setprecision(3);
    std::cout << "hosts=" << n << " switches=" << switches.GetN() << " msg=" << msg
              << " packet=" << packet << "\n"
              << "packets_sent=" << tx << " packets_delivered=" << rxPackets
              << " expected=" << expectPackets << " drops=" << drops
              << " slack_overflows=" << overflows << " switch_port_stops=" << stops << "\n"
              << "sim_time_ms=" << simEnd.GetSeconds() * 1e3
              << " aggregate_MBps=" << rx / simEnd.GetSeconds() / 1e6 << "\n"
              << "wall_build_s=" << build << " wall_run_s=" << run << " events=" << events
              << " events_per_s=" << std::setprecision(0) << events / run
              << " peak_rss_MB=" << std::setprecision(1) << ru.ru_maxrss / 1024.0 << std::endl;
    return (rxPackets == expectPackets && drops == 0 && overflows == 0) ? 0 : 1;
}
