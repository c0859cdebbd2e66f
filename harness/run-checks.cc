// SPDX-License-Identifier: GPL-2.0-only
#include "run-checks.h"

#include "ns3/data-rate.h"
#include "ns3/gige-net-device.h"
#include "ns3/lanai-nic.h"
#include "ns3/myrinet-net-device.h"
#include "ns3/nstime.h"
#include "ns3/uinteger.h"

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

} // namespace clusternet
} // namespace ns3
