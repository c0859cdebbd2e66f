// SPDX-License-Identifier: GPL-2.0-only
#include "run-checks.h"

#include "ns3/data-rate.h"
#include "ns3/fm-smt.h"
#include "ns3/double.h"
#include "ns3/gige-net-device.h"
#include "ns3/host-cpu.h"
#include "ns3/lanai-nic.h"
#include "ns3/mpi-helper.h"
#include "ns3/profile-catalogue.h"
#include "ns3/myrinet-net-device.h"
#include "ns3/nstime.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>
#include <utility>
#include <vector>

namespace ns3
{
namespace clusternet
{

std::string
RunChecks::LanaiSram(const ProfileSet& v)
{
    auto get = [&](const std::string& attribute) {
        return static_cast<uint32_t>(v.GetValue<UintegerValue>("lanai", attribute).Get());
    };
    return LanaiNic::CheckSram(get("SramSize"),
                               get("FirmwareSize"),
                               get("BufferSize"),
                               get("SendBuffers"),
                               get("ReceiveBuffers"));
}

std::string
RunChecks::MyrinetFlowControl(const ProfileSet& v)
{
    auto get = [&](const std::string& attribute) {
        return static_cast<uint32_t>(v.GetValue<UintegerValue>("port", attribute).Get());
    };
    return MyrinetNetDevice::CheckFlowControl(get("SlackBufferSize"),
                                              get("StopThreshold"),
                                              get("GoThreshold"),
                                              v.GetValue<DataRateValue>("link", "DataRate").Get(),
                                              v.GetValue<TimeValue>("link", "Delay").Get());
}

std::string
RunChecks::GmEthernetTokens(const ProfileSet& v)
{
    auto get = [&](const std::string& target, const std::string& attribute) {
        return v.GetValue<UintegerValue>(target, attribute).Get();
    };
    if (get("device", "SendBuffers") > get("gm", "SendTokens") ||
        get("device", "ReceiveBuffers") > get("gm", "ReceiveTokens"))
    {
        return "device.SendBuffers/ReceiveBuffers must not exceed gm.SendTokens/ReceiveTokens";
    }
    return "";
}

std::string
RunChecks::GigePause(const ProfileSet& v)
{
    auto get = [&](const std::string& attribute) {
        return static_cast<uint32_t>(v.GetValue<UintegerValue>("device", attribute).Get());
    };
    return GigeNetDevice::CheckPauseWaterMarks(get("PauseLowWater"),
                                               get("PauseHighWater"),
                                               get("RxFifoSize"));
}

namespace
{

/// @return the configured initial value of attribute @p name of TypeId @p typeId
Time
TcpTimer(const std::string& typeId, const std::string& name)
{
    TypeId::AttributeInformation info;
    bool found = TypeId::LookupByName(typeId).LookupAttributeByName(name, &info);
    NS_ABORT_MSG_UNLESS(found, typeId << " has no attribute " << name);
    TimeValue value;
    value.DeserializeFromString(info.initialValue->SerializeToString(info.checker), info.checker);
    return value.Get();
}

} // namespace

std::string
RunChecks::TcpFrameTime(const ProfileSet& v, uint32_t mtu)
{
    Ptr<HostCpu> cpu = CreateObject<HostCpu>();
    v.Apply("cpu", cpu);
    auto cycles = [&](const std::string& attribute) {
        return cpu->CyclesToTime(v.GetValue<DoubleValue>("driver", attribute).Get());
    };
    const uint32_t frame = GigeNetDevice::WireBytes(EthernetDeviceBase::HEADER + mtu);
    DataRate wire = v.GetValue<DataRateValue>("device", "DataRate").Get();
    DataRate sum = v.GetValue<DataRateValue>("cpu", "ChecksumBandwidth").Get();
    Time checksum = sum.GetBitRate() ? sum.CalculateBytesTxTime(mtu) : Seconds(0);
    std::vector<std::pair<std::string, Time>> parts = {
        {"cpu.SyscallCycles", cpu->GetSyscallCost() * 2},
        {"cpu.TxPacketCycles", cpu->GetTxPacketCost()},
        {"driver.TxCycles", cycles("TxCycles")},
        {"driver.TxCleanCycles", cycles("TxCleanCycles")},
        {"cpu.CopyBandwidth", (cpu->CopyCost(mtu) - checksum) * 2},
        {"cpu.ChecksumBandwidth", checksum * 2},
        {"device.NicTxCost", v.GetValue<TimeValue>("device", "NicTxCost").Get()},
        {"device.DataRate", wire.CalculateBytesTxTime(frame)},
        {"device.NicRxCost", v.GetValue<TimeValue>("device", "NicRxCost").Get()},
        {"cpu.InterruptCycles", cpu->GetInterruptCost()},
        {"driver.RxCycles", cycles("RxCycles")},
        {"cpu.RxPacketCycles", cpu->GetRxPacketCost()},
    };
    cpu->Dispose();
    Time total = Seconds(0);
    for (const auto& part : parts)
    {
        total += part.second;
    }
    Time minRto = TcpTimer("ns3::TcpSocketBase", "MinRto");
    Time connTimeout = TcpTimer("ns3::TcpSocket", "ConnTimeout");
    Time limit = std::min(minRto, connTimeout / 2);
    if (total <= limit)
    {
        return "";
    }
    auto most = std::max_element(parts.begin(), parts.end(), [](const auto& a, const auto& b) {
        return a.second < b.second;
    });
    std::ostringstream line;
    line << "one " << frame << "-byte frame's way between the hosts takes " << total.GetSeconds()
         << " s, " << most->second.GetSeconds() << " s of it " << most->first
         << "; allowed: at most " << limit.GetSeconds()
         << " s (TCP's MinRto, and half its ConnTimeout: beyond it a connection cannot be "
            "opened or kept)";
    return line.str();
}

std::string
RunChecks::FmSmtLayout(const ProfileSet& v, uint32_t processes)
{
    auto get = [&](const std::string& attribute) {
        return static_cast<uint32_t>(v.GetValue<UintegerValue>("smt", attribute).Get());
    };
    std::string layout =
        FmSmt::CheckLayout(get("FreeListFrames"), get("Queues"), get("MaxProcesses"));
    if (layout.empty() && processes > get("MaxProcesses"))
    {
        return "smt.MaxProcesses=" + std::to_string(get("MaxProcesses")) + " is below the " +
               std::to_string(processes) + " processes per host";
    }
    return layout;
}

std::string
RunChecks::MpiLibrary(const std::string& stack, TypeId transport)
{
    MpiHelper library;
    library.SetMpiProfile(stack);
    if (library.GetTransportType() != transport)
    {
        std::string over;
        for (const auto& name : ProfileCatalogue::Names("mpi"))
        {
            MpiHelper other;
            other.SetMpiProfile(name);
            if (other.GetTransportType() == transport)
            {
                over += (over.empty() ? "" : ", ") + name;
            }
        }
        return "--stack: " + stack + " runs over " +
               MpiHelper::TransportProperty(library.GetTransportType()) + ", not " +
               MpiHelper::TransportProperty(transport) + "; allowed: " + over;
    }
    std::string problem = library.CheckProfile();
    return problem.empty() ? "" : "--stack: " + stack + ": " + problem;
}

} // namespace clusternet
} // namespace ns3
