// SPDX-License-Identifier: GPL-2.0-only
//
// A flow-level reference for ./ns3 bench part (g): NetPIPE's TCP ping-pong between two hosts
// on one link, in SimGrid's S4U with its default network model (LV08: max-min sharing of a
// flow over the route, bandwidth and latency factors). The same schedule as clusternet's
// NetpipeApplication with its defaults: the block sizes given (the bench passes those of
// clusternet's own run), for each one warm-up round trip, then 2 timings of n round trips
// (n = 2 ms / the warm-up round trip, 1 to 20), the fastest kept, one-way time half the round
// trip. It has no MTU, NIC, host or socket buffer: one answer for every configuration.
//
// Built by ./ns3 bench when SimGrid is installed (Debian libsimgrid-dev):
//   simgrid-netpipe --sizes=1,2,3,... [--bandwidth=1Gbps] [--latency=50us]
// prints msg_bytes,latency_us,mbps for each block, then wall_run_s=<seconds of Engine::run>.

#include <simgrid/s4u.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace sg4 = simgrid::s4u;

namespace
{

/// One measured block: its size and one-way time [s].
struct Sample
{
    uint64_t bytes;
    double oneWay;
};

std::vector<Sample> g_samples; //!< the transmitter's results

/// The transmitter: the ping-pong schedule; a block of 0 bytes ends the receiver.
void
Transmitter(std::vector<uint64_t> sizes)
{
    sg4::Mailbox* out = sg4::Mailbox::by_name("to-receiver");
    sg4::Mailbox* in = sg4::Mailbox::by_name("to-transmitter");
    auto roundTrip = [out, in](uint64_t bytes) {
        out->put(new uint64_t(bytes), bytes);
        delete in->get<uint64_t>();
    };
    const double runTime = 2e-3;
    const int trials = 2;
    const long maxRepeats = 20;
    for (uint64_t bytes : sizes)
    {
        double start = sg4::Engine::get_clock();
        roundTrip(bytes);
        double rtt = sg4::Engine::get_clock() - start;
        long repeats = std::clamp<long>(static_cast<long>(runTime / std::max(rtt, 1e-9)),
                                        1,
                                        maxRepeats);
        double best = 1e300;
        for (int t = 0; t < trials; ++t)
        {
            start = sg4::Engine::get_clock();
            for (long r = 0; r < repeats; ++r)
            {
                roundTrip(bytes);
            }
            best = std::min(best, (sg4::Engine::get_clock() - start) / repeats);
        }
        g_samples.push_back({bytes, best / 2});
    }
    out->put(new uint64_t(0), 1);
}

/// The receiver: returns every block, until the empty one.
void
Receiver()
{
    sg4::Mailbox* in = sg4::Mailbox::by_name("to-receiver");
    sg4::Mailbox* out = sg4::Mailbox::by_name("to-transmitter");
    while (true)
    {
        uint64_t* block = in->get<uint64_t>();
        uint64_t bytes = *block;
        delete block;
        if (bytes == 0)
        {
            return;
        }
        out->put(new uint64_t(bytes), bytes);
    }
}

/// The value of option @p name in @p arg ("--name=value"), or nullptr.
const char*
Option(const std::string& arg, const std::string& name)
{
    std::string prefix = "--" + name + "=";
    return arg.rfind(prefix, 0) == 0 ? arg.c_str() + prefix.size() : nullptr;
}

} // namespace

int
main(int argc, char** argv)
{
    std::vector<uint64_t> sizes;
    std::string bandwidth = "1Gbps";
    std::string latency = "50us";
    std::vector<char*> rest{argv[0]};
    for (int i = 1; i < argc; ++i)
    {
        std::string arg = argv[i];
        if (const char* v = Option(arg, "sizes"))
        {
            std::string list = v;
            for (std::size_t at = 0; at <= list.size();)
            {
                std::size_t comma = std::min(list.find(',', at), list.size());
                std::string item = list.substr(at, comma - at);
                char* end = nullptr;
                uint64_t bytes = std::strtoull(item.c_str(), &end, 10);
                if (item.empty() || *end != '\0' || bytes < 1 || bytes > (1ULL << 30))
                {
                    std::fprintf(stderr,
                                 "simgrid-netpipe: --sizes: '%s' is not a block size 1..2^30 "
                                 "[bytes]\n",
                                 item.c_str());
                    return 2;
                }
                sizes.push_back(bytes);
                at = comma + 1;
            }
        }
        else if (const char* v = Option(arg, "bandwidth"))
        {
            bandwidth = v;
        }
        else if (const char* v = Option(arg, "latency"))
        {
            latency = v;
        }
        else
        {
            rest.push_back(argv[i]); // SimGrid's own --cfg=... and --log=...
        }
    }
    if (sizes.empty())
    {
        std::fprintf(stderr, "simgrid-netpipe: --sizes: give the block sizes, comma-separated\n");
        return 2;
    }
    int n = static_cast<int>(rest.size());
    sg4::Engine engine(&n, rest.data());
    sg4::NetZone* zone = sg4::create_full_zone("back-to-back");
    sg4::Host* a = zone->create_host("a", "1Gf");
    sg4::Host* b = zone->create_host("b", "1Gf");
    sg4::Link* wire = zone->create_link("wire", bandwidth)->set_latency(latency)->seal();
    zone->add_route(a->get_netpoint(),
                    b->get_netpoint(),
                    nullptr,
                    nullptr,
                    {sg4::LinkInRoute(wire)},
                    true);
    zone->seal();
    sg4::Actor::create("transmitter", a, Transmitter, sizes);
    sg4::Actor::create("receiver", b, Receiver);
    auto t0 = std::chrono::steady_clock::now();
    engine.run();
    auto t1 = std::chrono::steady_clock::now();
    std::printf("msg_bytes,latency_us,mbps\n");
    for (const Sample& s : g_samples)
    {
        std::printf("%llu,%.3f,%.3f\n",
                    static_cast<unsigned long long>(s.bytes),
                    s.oneWay * 1e6,
                    s.bytes * 8.0 / s.oneWay / 1e6);
    }
    std::printf("wall_run_s=%.6f\n", std::chrono::duration<double>(t1 - t0).count());
    return 0;
}
