// SPDX-License-Identifier: GPL-2.0-only
#include "profile-registry.h"

#include "ns3/log.h"
#include "ns3/string.h"

#include <algorithm>
#include <vector>

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("ProfileRegistry");

namespace
{

const std::string kSeed000 = "seed 000 (Ong & Farrell, ALS 2000)";

/// The catalogue. Every value names its source or the reasoning behind it.
std::vector<Profile>
MakeCatalogue()
{
    std::vector<Profile> c;

    // ------------------------------------------------------------------ hosts
    c.push_back(
        {"host",
         "piii450-linux22",
         "Pentium III 450 MHz, 100 MHz FSB, PC100 SDRAM, 440BX, 32-bit/33 MHz PCI, Linux 2.2.12",
         {
             {"bus", "Width", "32", kSeed000 + " sec. 3: NIC in the 32bit/33MHz PCI slot"},
             {"bus", "Clock", "33", kSeed000 + " sec. 3"},
             {"bus", "BurstSize", "256",
              "440BX host bridge: DMA bursts broken at 256 B by the master latency timer "
              "(typical BIOS setting 64 clocks)"},
             {"bus", "TransactionOverhead", "4",
              "PCI 2.1: arbitration + address + turnaround, about 4 clocks"},
             {"bus", "ReadLatency", "10",
              "440BX memory read: ~10 clocks of initial target latency per burst "
              "(PCI 2.1 allows up to 16)"},
             {"bus", "WriteLatency", "1", "posted writes into the 440BX write buffer"},
             {"cpu", "SyscallCost", "6us",
              "Linux 2.2 on a PIII-450: trap, socket layer, sleep/wake-up; calibrated to the "
              "TCP latencies of " + kSeed000 + " sec. 4.1"},
             {"cpu", "CopyBandwidth", "760Mbps",
              "copy + checksum (csum_partial_copy) at ~95 MB/s, cold source on PC100; slope of "
              "per-packet time against MTU in " + kSeed000 + " Table 1"},
             {"cpu", "InterruptCost", "4us", "interrupt entry/ack/exit on a PIII-450 (~1800 cycles)"},
             {"cpu", "TxPacketCost", "8us",
              "Linux 2.2 tcp_sendmsg/ip_queue_xmit per segment; intercept of Table 1 fit"},
             {"cpu", "RxPacketCost", "10us",
              "Linux 2.2 ip_rcv/tcp_v4_rcv per segment incl. ACK generation; intercept of "
              "Table 1 fit"},
             {"stack", "RcvBufMultiplier", "0.55",
              "effective receive window = 0.55 x SO_RCVBUF, calibrated once on the 64 KB "
              "column of " + kSeed000 + " Table 1. Linux 2.2 grants 2x the request "
              "(sock_setsockopt) and advertises half the free memory "
              "(TCP_WINDOW_ADVERTISE_DIVISOR) less the truesize of queued skbs; the model's "
              "reader drains too promptly for that loss to appear, so its net effect is "
              "calibrated here (WindowDivisor, SkbOverhead and QuantizeWindow stay off)"},
             {"stack", "Timestamps", "true", kSeed000 + " sec. 4.1: tuned per RFC 1323"},
             {"stack", "WindowScaling", "true", kSeed000 + " sec. 4.1: tuned per RFC 1323"},
             {"stack", "DelAckCount", "2", "Linux 2.2 ACKs every second full-sized segment"},
             {"stack", "DelAckTimeout", "40ms", "Linux 2.2 delayed-ACK timer (ATO)"},
             {"stack", "InitialCwnd", "2", "Linux 2.2 initial congestion window"},
         }});

    // ------------------------------------------------------------------ NICs
    c.push_back(
        {"nic",
         "sknet",
         "SysKonnect SK-NET GE (SK-9843, XMAC II), sk98lin v3.01 driver",
         {
             {"device", "RxFifoSize", "65536", "SK-9843: 1 MB on-board SRAM, RX queue share"},
             {"device", "TxFifoSize", "65536", "SK-9843 on-board SRAM, TX queue share"},
             {"device", "PauseHighWater", "40960", "sk98lin default flow-control thresholds"},
             {"device", "PauseLowWater", "16384", "sk98lin default flow-control thresholds"},
             {"device", "DriverTxCost", "3us", "sk98lin per-frame transmit path"},
             {"device", "DriverRxCost", "3us", "sk98lin per-frame receive path"},
             {"device", "NicTxCost", "1us", "XMAC II + on-board BMU, no firmware processor"},
             {"device", "NicRxCost", "1us", "XMAC II + on-board BMU, no firmware processor"},
             {"coalescer", "Enabled", "false",
              "sk98lin v3.01 has no interrupt moderation; 45 us latency in " + kSeed000 +
                  " sec. 4.1"},
         }});
    c.push_back(
        {"nic",
         "acenic",
         "Alteon ACEnic (Tigon 2), acenic v0.45 driver",
         {
             {"device", "RxFifoSize", "65536", "Tigon 2: 1 MB SRAM, receive share"},
             {"device", "TxFifoSize", "65536", "Tigon 2: 1 MB SRAM, transmit share"},
             {"device", "PauseHighWater", "40960", "firmware default thresholds"},
             {"device", "PauseLowWater", "16384", "firmware default thresholds"},
             {"device", "DmaReadBurst", "64",
              "Tigon 2 host-read DMA in 64 B bursts (PciState DMA_READ_MAX field, 4 B - 1 KB): "
              "~71 MB/s on 32-bit/33 MHz PCI; calibrated once on the ACEnic 128 KB column of " +
                  kSeed000 + " Table 1, whose gap to the SK-NET grows with the frame size"},
             {"device", "JumboBufferSize", "9020",
              "acenic: above MTU 1500 every longer frame lands in a jumbo-ring buffer of "
              "ACE_JUMBO_BUFSIZE (9000 + 14 + 4) + 2 alignment bytes"},
             {"device", "DriverTxCost", "4us", "acenic v0.45 per-frame transmit path"},
             {"device", "DriverRxCost", "4us", "acenic v0.45 per-frame receive path"},
             {"device", "NicTxCost", "6us", "Tigon 2 firmware on an 88 MHz MIPS core per frame"},
             {"device", "NicRxCost", "6us", "Tigon 2 firmware on an 88 MHz MIPS core per frame"},
             {"coalescer", "Enabled", "true", "acenic driver programs RX coalescing ticks"},
             {"coalescer", "Timeout", "120us",
              "acenic DEF_RX_COAL; calibrated to 182 us latency in " + kSeed000 + " sec. 4.1"},
             {"coalescer", "MaxFrames", "25", "acenic DEF_RX_MAX_DESC"},
         }});
    c.push_back(
        {"nic",
         "gnic2",
         "Packet Engines GNIC-II (Hamachi), hamachi v0.07 driver",
         {
             {"device", "RxFifoSize", "65536", "Hamachi on-chip FIFO"},
             {"device", "TxFifoSize", "65536", "Hamachi on-chip FIFO"},
             {"device", "PauseHighWater", "40960", "chip default"},
             {"device", "PauseLowWater", "16384", "chip default"},
             {"device", "DriverTxCost", "3us", "hamachi v0.07 per-frame transmit path"},
             {"device", "DriverRxCost", "3us", "hamachi v0.07 per-frame receive path"},
             {"device", "NicTxCost", "1us", "Hamachi: hardware DMA, no firmware"},
             {"device", "NicRxCost", "1us", "Hamachi: hardware DMA, no firmware"},
             {"coalescer", "Enabled", "true", "hamachi rx_int_var interrupt mitigation"},
             {"coalescer", "Timeout", "92us",
              "hamachi v0.07 default mitigation; calibrated to 137 us latency in " + kSeed000 +
                  " sec. 4.1"},
             {"coalescer", "MaxFrames", "8", "hamachi v0.07 default mitigation frame count"},
         }});
    return c;
}

/// One "target.Attribute=value" item of an override string.
struct OverrideItem
{
    std::string text;
    std::string target;
    std::string attribute;
    std::string value;
};

/// Split "target.Attribute=value;..." into items; @return an error naming the bad item, or ""
std::string
ParseOverrides(const std::string& overrides, std::vector<OverrideItem>& items)
{
    std::size_t start = 0;
    while (start < overrides.size())
    {
        std::size_t end = overrides.find(';', start);
        std::string item = overrides.substr(start, end == std::string::npos ? end : end - start);
        start = end == std::string::npos ? overrides.size() : end + 1;
        if (item.empty())
        {
            continue;
        }
        std::size_t dot = item.find('.');
        std::size_t eq = item.find('=');
        if (dot == std::string::npos || eq == std::string::npos || eq < dot)
        {
            return "'" + item + "' is not target.Attribute=value";
        }
        items.push_back(
            {item, item.substr(0, dot), item.substr(dot + 1, eq - dot - 1), item.substr(eq + 1)});
    }
    return "";
}

} // namespace

const std::vector<Profile>&
ProfileRegistry::All()
{
    static const std::vector<Profile> catalogue = MakeCatalogue();
    return catalogue;
}

const Profile*
ProfileRegistry::Find(const std::string& kind, const std::string& name)
{
    for (const auto& p : All())
    {
        if (p.kind == kind && p.name == name)
        {
            return &p;
        }
    }
    return nullptr;
}

std::vector<std::string>
ProfileRegistry::Names(const std::string& kind)
{
    std::vector<std::string> names;
    for (const auto& p : All())
    {
        if (p.kind == kind)
        {
            names.push_back(p.name);
        }
    }
    return names;
}

std::string
ProfileRegistry::JoinNames(const std::string& kind)
{
    std::string out;
    for (const auto& n : Names(kind))
    {
        out += (out.empty() ? "" : ", ") + n;
    }
    return out;
}

uint32_t
ProfileRegistry::Apply(const Profile& profile, const std::string& target, Ptr<Object> object)
{
    uint32_t n = 0;
    for (const auto& v : profile.values)
    {
        if (v.target == target)
        {
            object->SetAttribute(v.attribute, StringValue(v.value));
            ++n;
        }
    }
    return n;
}

std::string
ProfileRegistry::CheckTargets(const std::string& overrides, const std::vector<std::string>& targets)
{
    std::vector<OverrideItem> items;
    std::string err = ParseOverrides(overrides, items);
    if (!err.empty())
    {
        return err;
    }
    for (const auto& i : items)
    {
        if (std::find(targets.begin(), targets.end(), i.target) == targets.end())
        {
            std::string allowed;
            for (const auto& t : targets)
            {
                allowed += (allowed.empty() ? "" : ", ") + t;
            }
            return "'" + i.text + "': unknown target '" + i.target + "'; allowed: " + allowed;
        }
    }
    return "";
}

std::string
ProfileRegistry::ApplyOverrides(const std::string& overrides,
                                const std::string& target,
                                Ptr<Object> object)
{
    std::vector<OverrideItem> items;
    std::string err = ParseOverrides(overrides, items);
    if (!err.empty())
    {
        return err;
    }
    for (const auto& i : items)
    {
        if (i.target != target)
        {
            continue;
        }
        TypeId tid = object->GetInstanceTypeId();
        TypeId::AttributeInformation info;
        if (!tid.LookupAttributeByName(i.attribute, &info))
        {
            return "'" + i.text + "': " + tid.GetName() + " has no attribute " + i.attribute;
        }
        // An enum checker asserts on an unknown name instead of refusing it: check it here.
        if (info.checker->GetValueTypeName().rfind("ns3::EnumValue", 0) == 0)
        {
            std::string names = info.checker->GetUnderlyingTypeInformation();
            std::string padded = "|" + names + "|";
            if (i.value.empty() || i.value.find('|') != std::string::npos ||
                padded.find("|" + i.value + "|") == std::string::npos)
            {
                return "'" + i.text + "': value not allowed (one of " + names + ")";
            }
        }
        if (!object->SetAttributeFailSafe(i.attribute, StringValue(i.value)))
        {
            return "'" + i.text + "': value not allowed (" +
                   info.checker->GetUnderlyingTypeInformation() + ")";
        }
    }
    return "";
}

} // namespace clusternet
} // namespace ns3
