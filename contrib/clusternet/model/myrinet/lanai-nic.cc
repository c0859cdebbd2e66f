// SPDX-License-Identifier: GPL-2.0-only
#include "lanai-nic.h"

#include "myrinet-net-device.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("LanaiNic");
NS_OBJECT_ENSURE_REGISTERED(LanaiNic);

TypeId
LanaiNic::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::clusternet::LanaiNic")
            .SetParent<Object>()
            .SetGroupName("Clusternet")
            .AddConstructor<LanaiNic>()
            .AddAttribute("Clock",
                          "LANai processor (and SRAM) clock [MHz].",
                          UintegerValue(133),
                          MakeUintegerAccessor(&LanaiNic::m_clockMhz),
                          MakeUintegerChecker<uint32_t>(1, 1000))
            .AddAttribute("SramSize",
                          "On-board SRAM [bytes].",
                          UintegerValue(2u << 20),
                          MakeUintegerAccessor(&LanaiNic::m_sramSize),
                          MakeUintegerChecker<uint32_t>(65536, 1u << 30))
            .AddAttribute("FirmwareSize",
                          "SRAM taken by the control program, its queues and page-translation "
                          "cache, not available for packet buffers [bytes].",
                          UintegerValue(512u << 10),
                          MakeUintegerAccessor(&LanaiNic::m_firmwareSize),
                          MakeUintegerChecker<uint32_t>(0, 1u << 30))
            .AddAttribute("BufferSize",
                          "One packet buffer: the largest packet payload plus headers [bytes].",
                          UintegerValue(4096 + 64),
                          MakeUintegerAccessor(&LanaiNic::m_bufferSize),
                          MakeUintegerChecker<uint32_t>(64, 1u << 20))
            .AddAttribute("SendBuffers",
                          "Packet buffers for sending [buffers].",
                          UintegerValue(2),
                          MakeUintegerAccessor(&LanaiNic::m_sendBuffers),
                          MakeUintegerChecker<uint32_t>(1, 4096))
            .AddAttribute("ReceiveBuffers",
                          "Packet buffers for receiving [buffers].",
                          UintegerValue(2),
                          MakeUintegerAccessor(&LanaiNic::m_recvBuffers),
                          MakeUintegerChecker<uint32_t>(1, 4096))
            .AddAttribute("DmaBurst",
                          "Largest PCI burst of the host DMA engine [bytes].",
                          UintegerValue(256),
                          MakeUintegerAccessor(&LanaiNic::m_dmaBurst),
                          MakeUintegerChecker<uint32_t>(4, 65536))
            .AddAttribute("DmaStartLatency",
                          "From programming the host DMA engine to its first bus request "
                          "[Time].",
                          TimeValue(NanoSeconds(0)),
                          MakeTimeAccessor(&LanaiNic::m_dmaStart),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("TranslationEntries",
                          "Host page translations the control program caches in SRAM "
                          "[entries].",
                          UintegerValue(256),
                          MakeUintegerAccessor(&LanaiNic::m_translationEntries),
                          MakeUintegerChecker<uint32_t>(1, 1u << 20))
            .AddAttribute("TranslationEntryBytes",
                          "Bytes read from the host page table on a translation miss [bytes].",
                          UintegerValue(8),
                          MakeUintegerAccessor(&LanaiNic::m_translationEntryBytes),
                          MakeUintegerChecker<uint32_t>(1, 4096))
            .AddAttribute("TranslationMissCycles",
                          "Processor work on a translation miss (hash lookup, table walk, "
                          "cache fill) [LANai cycles].",
                          UintegerValue(600),
                          MakeUintegerAccessor(&LanaiNic::m_missCycles),
                          MakeUintegerChecker<uint32_t>(0, 1000000))
            .AddTraceSource("DmaStart",
                            "A host DMA transfer starts on the bus: bytes and direction.",
                            MakeTraceSourceAccessor(&LanaiNic::m_dmaTrace),
                            "ns3::clusternet::LanaiNic::DmaTracedCallback");
    return tid;
}

LanaiNic::LanaiNic()
{
    NS_LOG_FUNCTION(this);
}

LanaiNic::~LanaiNic()
{
    NS_LOG_FUNCTION(this);
}

void
LanaiNic::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_port = nullptr;
    m_bus = nullptr;
    m_jobs.clear();
    m_dmas.clear();
    m_lru.clear();
    m_translations.clear();
    Object::DoDispose();
}

void
LanaiNic::SetPort(Ptr<NetDevice> port)
{
    m_port = DynamicCast<MyrinetNetDevice>(port);
    NS_ABORT_MSG_UNLESS(m_port || !port,
                        "LanaiNic: " << port->GetInstanceTypeId().GetName()
                                     << " is not a Myrinet host port (MyrinetNetDevice)");
}

Ptr<MyrinetNetDevice>
LanaiNic::GetPort() const
{
    return m_port;
}

void
LanaiNic::SetBus(Ptr<PciBus> bus)
{
    m_bus = bus;
}

Ptr<PciBus>
LanaiNic::GetBus() const
{
    return m_bus;
}

Time
LanaiNic::Cycles(uint64_t cycles) const
{
    // cycles / (MHz * 1e6) seconds, in picoseconds to keep 133 MHz exact enough (7.519 ns)
    return PicoSeconds(static_cast<int64_t>(cycles * 1000000 / m_clockMhz));
}

std::string
LanaiNic::CheckConfiguration() const
{
    return CheckSram(m_sramSize, m_firmwareSize, m_bufferSize, m_sendBuffers, m_recvBuffers);
}

std::string
LanaiNic::CheckSram(uint32_t sramSize,
                    uint32_t firmwareSize,
                    uint32_t bufferSize,
                    uint32_t sendBuffers,
                    uint32_t receiveBuffers)
{
    uint64_t need = static_cast<uint64_t>(sendBuffers + receiveBuffers) * bufferSize;
    if (firmwareSize + need > sramSize)
    {
        return "LanaiNic: SendBuffers + ReceiveBuffers (" +
               std::to_string(sendBuffers + receiveBuffers) + " x " + std::to_string(bufferSize) +
               " bytes) do not fit SramSize " + std::to_string(sramSize) +
               " minus FirmwareSize " + std::to_string(firmwareSize) + " bytes";
    }
    return "";
}

void
LanaiNic::Execute(uint64_t cycles, Callback<void> done)
{
    NS_LOG_FUNCTION(this << cycles);
    m_jobs.push_back({Cycles(cycles), done});
    if (!m_cpuBusy)
    {
        StartJob();
    }
}

void
LanaiNic::StartJob()
{
    if (m_jobs.empty())
    {
        m_cpuBusy = false;
        return;
    }
    m_cpuBusy = true;
    m_busyTime += m_jobs.front().cost;
    Simulator::Schedule(m_jobs.front().cost, &LanaiNic::JobDone, this);
}

void
LanaiNic::JobDone()
{
    Callback<void> done = m_jobs.front().done;
    m_jobs.pop_front();
    if (!done.IsNull())
    {
        done();
    }
    StartJob();
}

void
LanaiNic::HostDma(uint32_t bytes, PciBus::Direction dir, uint64_t page, Callback<void> done)
{
    NS_LOG_FUNCTION(this << bytes << dir << page);
    NS_ASSERT_MSG(dir == PciBus::DMA_READ || dir == PciBus::DMA_WRITE,
                  "the host DMA engine reads or writes host memory");
    m_dmas.push_back({bytes, dir, page, done});
    if (!m_dmaBusy)
    {
        StartDma();
    }
}

bool
LanaiNic::Translate(uint64_t page)
{
    auto it = m_translations.find(page);
    if (it != m_translations.end())
    {
        m_lru.splice(m_lru.begin(), m_lru, it->second);
        return true;
    }
    ++m_misses;
    m_lru.push_front(page);
    m_translations[page] = m_lru.begin();
    if (m_lru.size() > m_translationEntries)
    {
        m_translations.erase(m_lru.back());
        m_lru.pop_back();
    }
    return false;
}

void
LanaiNic::StartDma()
{
    if (m_dmas.empty())
    {
        m_dmaBusy = false;
        return;
    }
    m_dmaBusy = true;
    const Dma& d = m_dmas.front();
    if (Translate(d.page))
    {
        DmaTranslated();
        return;
    }
    // Miss: read the page-table entry from host memory, then the processor fills the cache.
    Callback<void> fill = MakeCallback(&LanaiNic::DmaTranslated, this);
    if (!m_bus)
    {
        Execute(m_missCycles, fill);
        return;
    }
    Ptr<LanaiNic> self = this;
    uint64_t cycles = m_missCycles;
    m_bus->Transfer(
        m_translationEntryBytes,
        PciBus::DMA_READ,
        [self, cycles, fill]() { self->Execute(cycles, fill); },
        m_dmaBurst);
}

void
LanaiNic::DmaTranslated()
{
    const Dma& d = m_dmas.front();
    m_dmaTrace(d.bytes, d.dir);
    if (d.bytes == 0)
    {
        DmaDone();
        return;
    }
    if (!m_bus)
    {
        Simulator::Schedule(m_dmaStart, &LanaiNic::DmaDone, this);
        return;
    }
    Ptr<PciBus> bus = m_bus;
    uint32_t bytes = d.bytes;
    PciBus::Direction dir = d.dir;
    uint32_t burst = m_dmaBurst;
    Callback<void> done = MakeCallback(&LanaiNic::DmaDone, this);
    if (m_dmaStart.IsZero())
    {
        bus->Transfer(bytes, dir, done, burst);
        return;
    }
    Simulator::Schedule(m_dmaStart, [bus, bytes, dir, done, burst]() {
        bus->Transfer(bytes, dir, done, burst);
    });
}

void
LanaiNic::DmaDone()
{
    Dma d = m_dmas.front();
    m_dmas.pop_front();
    m_dmaBytes += d.bytes;
    if (!d.done.IsNull())
    {
        d.done();
    }
    StartDma();
}

uint32_t
LanaiNic::GetFreeSendBuffers() const
{
    return m_sendBuffers > m_usedSend ? m_sendBuffers - m_usedSend : 0;
}

void
LanaiNic::TakeSendBuffer()
{
    NS_ASSERT_MSG(GetFreeSendBuffers() > 0, "no send buffer free");
    ++m_usedSend;
}

void
LanaiNic::ReleaseSendBuffer()
{
    NS_ASSERT_MSG(m_usedSend > 0, "releasing a send buffer that is not taken");
    --m_usedSend;
}

uint32_t
LanaiNic::GetFreeReceiveBuffers() const
{
    return m_recvBuffers > m_usedRecv ? m_recvBuffers - m_usedRecv : 0;
}

void
LanaiNic::TakeReceiveBuffer()
{
    NS_ASSERT_MSG(GetFreeReceiveBuffers() > 0,
                  "a packet arrived with no receive buffer free (interface not stopped)");
    ++m_usedRecv;
    if (GetFreeReceiveBuffers() == 0 && m_port)
    {
        m_rxStopped = true;
        m_port->SetReceiveEnabled(false);
    }
}

void
LanaiNic::ReleaseReceiveBuffer()
{
    NS_ASSERT_MSG(m_usedRecv > 0, "releasing a receive buffer that is not taken");
    --m_usedRecv;
    if (m_rxStopped && m_port)
    {
        m_rxStopped = false;
        m_port->SetReceiveEnabled(true);
    }
}

uint32_t
LanaiNic::GetBufferSize() const
{
    return m_bufferSize;
}

Time
LanaiNic::GetProcessorBusyTime() const
{
    return m_busyTime;
}

uint64_t
LanaiNic::GetDmaBytes() const
{
    return m_dmaBytes;
}

uint64_t
LanaiNic::GetTranslationMisses() const
{
    return m_misses;
}

void
LanaiNic::FlushTranslations()
{
    m_lru.clear();
    m_translations.clear();
}

} // namespace clusternet
} // namespace ns3
