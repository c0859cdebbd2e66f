// SPDX-License-Identifier: GPL-2.0-only
#include "profile-registry.h"

#include "ns3/log.h"
#include "ns3/string.h"

#include <algorithm>
#include <vector>

#include <cstdlib>

namespace ns3
{
namespace clusternet
{

NS_LOG_COMPONENT_DEFINE("ProfileRegistry");

namespace
{

const std::string kSeed000 = "seed 000 (Ong & Farrell, ALS 2000)";
const std::string kSeed001 = "seed 001 (Baker & Ong, Myrinet LANai9 study, 2002)";
const std::string kSeed002 = "seed 002 (Baker, Scott, Geist & Browne, GigaBit Performance "
                              "under NT, 2000)";
const std::string kSeed003 = "seed 003 (LA-MPI over GM and TCP, LACSI 2004)";
const std::string kSeed004 = "seed 004 (Bruno et al., HPVM 1.9, 2000)";

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
             {"cpu", "Speed", "1.0", "the reference host for library per-call costs"},
             {"cpu", "TxPacketCost", "8us",
              "Linux 2.2 tcp_sendmsg/ip_queue_xmit per segment; intercept of Table 1 fit"},
             {"cpu", "RxPacketCost", "10us",
              "Linux 2.2 ip_rcv/tcp_v4_rcv per segment incl. ACK generation; intercept of "
              "Table 1 fit"},
             {"stack", "RcvBufMultiplier", "0.45",
              "effective receive window = 0.45 x SO_RCVBUF, calibrated once on the 64 KB "
              "column of " + kSeed000 + " Table 1 (with acenic's jumbo coalescing). Linux "
              "2.2 grants 2x the request (sock_setsockopt) and advertises half the free memory "
              "(TCP_WINDOW_ADVERTISE_DIVISOR) less the truesize of queued skbs; the model's "
              "reader drains too promptly for that loss to appear, so its net effect is "
              "calibrated here (WindowDivisor, SkbOverhead and QuantizeWindow stay off)"},
             {"stack", "Timestamps", "true", kSeed000 + " sec. 4.1: tuned per RFC 1323"},
             {"stack", "WindowScaling", "true", kSeed000 + " sec. 4.1: tuned per RFC 1323"},
             {"stack", "DelAckCount", "2", "Linux 2.2 ACKs every second full-sized segment"},
             {"stack", "DelAckTimeout", "40ms", "Linux 2.2 delayed-ACK timer (ATO)"},
             {"stack", "InitialCwnd", "2", "Linux 2.2 initial congestion window"},
             {"stack", "DefaultSocketBuffer", "32767",
              "Linux 2.2 sock_init_data: a socket starts with rcvbuf = sndbuf = "
              "sysctl_rmem_default = sysctl_wmem_default = 65535 bytes, where "
              "setsockopt(SO_RCVBUF/SO_SNDBUF, n) grants 2n: the buffers of a 32767-byte "
              "request"},
         }});

    c.push_back(
        {"host",
         "p200-430vx-linux24",
         "Pentium 200 MHz, Intel 430VX, 64 MB 33 MHz RAM, 512 KB cache, 32-bit/33 MHz PCI, "
         "Linux 2.4.9, GM 1.5",
         {
             {"bus", "Width", "32", kSeed001 + " sec. 3: LANai9 in the 32bit/33MHz PCI slot"},
             {"bus", "Clock", "33", kSeed001 + " sec. 3"},
             {"bus", "BurstSize", "256",
              "GM's default DMA transfer size between chipset and board is 256 bytes (the "
              "LANai DmaBurst); the bus does not break bursts earlier"},
             {"bus", "TransactionOverhead", "2",
              "calibrated with ReadLatency/WriteLatency on " + kSeed001 +
              " Table 1, 2nd pattern (124 MB/s read, 128 MB/s write of 4096 bytes in "
              "256-byte bursts: 5 and 3 clocks per burst beyond the data)"},
             {"bus", "ReadLatency", "3", kSeed001 + " Table 1 (see TransactionOverhead)"},
             {"bus", "WriteLatency", "1", kSeed001 + " Table 1 (see TransactionOverhead)"},
             {"bus", "PioCyclesPerWord", "5",
              "430VX: CPU writes to PCI memory are single-word transactions with wait states; "
              "with the token's 32 bytes and the data DMA this gives the ~2 us 'copy of a "
              "one-byte message from host to NIC' of " + kSeed001 + " sec. 4.3"},
             {"cpu", "SyscallCost", "15us",
              "Linux 2.4 system call with socket layer on a P5-200: about 2.5x the PIII-450 "
              "value (clock 2.25x, no out-of-order core)"},
             {"cpu", "CopyBandwidth", "600Mbps",
              "calibrated on the 25 MB/s TCP peak of " + kSeed001 + " sec. 4.4: every byte is "
              "copied twice on each host (user/kernel, kernel/pinned GM buffer), 9000-byte "
              "frames mostly in the 512 KB L2 cache: 75 MB/s, above the ~50 MB/s main-memory "
              "regime of the HINT curve (sec. 4.1)"},
             {"cpu", "InterruptCost", "10us", "interrupt entry/ack/exit on a P5-200"},
             {"cpu", "Speed", "0.4",
              "P5-200 against the PIII-450: clock 0.44x, no out-of-order core; the 2.5x "
              "system-call cost above"},
             {"cpu", "TxPacketCost", "20us", "Linux 2.4 TCP/IP transmit path per segment, P5-200"},
             {"cpu", "RxPacketCost", "25us", "Linux 2.4 TCP/IP receive path per segment, P5-200"},
             {"stack", "Timestamps", "true", "Linux 2.4 default (RFC 1323)"},
             {"stack", "WindowScaling", "true", "Linux 2.4 default (RFC 1323)"},
             {"stack", "DelAckCount", "2", "Linux ACKs every second full-sized segment"},
             {"stack", "DelAckTimeout", "40ms", "Linux delayed-ACK timer (ATO minimum)"},
             {"stack", "InitialCwnd", "2", "Linux 2.4 initial congestion window"},
             {"stack", "DefaultSocketBuffer", "43690",
              "Linux 2.4 tcp_v4_init_sock: rcvbuf = sysctl_tcp_rmem[1] = 87380 bytes, where "
              "setsockopt(SO_RCVBUF, n) grants 2n: the receive buffer of a 43690-byte request"},
             {"gm", "SendCost", "1080ns",
              "gm_send_with_callback() incl. the PIO write of its token; with one PollInterval "
              "of the logp sender's loop it gives Os = 1.28 us (" + kSeed001 + " sec. 4.3)"},
             {"gm", "PollInterval", "200ns",
              "one gm_receive() finding no event: a cached read of the receive queue and the "
              "call, ~40 cycles at 200 MHz"},
             {"gm", "EventCost", "600ns",
              "gm_receive() returning an event and its dispatch (gm_unknown for sends); "
              "estimate, ~120 cycles"},
             {"gm", "ProvideCost", "600ns",
              "gm_provide_receive_buffer(): token bookkeeping and its PIO write; estimate"},
             {"gm", "SendTokens", "32", "GM 1.x port default (estimate; not in the seeds)"},
             {"gm", "ReceiveTokens", "32", "GM 1.x port default (estimate; not in the seeds)"},
             {"device", "SendBuffers", "16",
              "GM 1.5 Ethernet emulation: pinned send buffers of the driver (estimate)"},
             {"device", "ReceiveBuffers", "16",
              "GM 1.5 Ethernet emulation: receive buffers provided to GM (estimate)"},
             {"device", "DriverTxCost", "41us",
              "calibrated on the 184.5 us one-byte TCP latency of " + kSeed001 + " sec. 4.4 "
              "(182-187 us): with the TCP/IP costs above scaled from the PIII-450, the GM "
              "Ethernet driver's transmit and receive paths (skb handling, gm_send, the GM "
              "interrupt and event dispatch, process wake-up) take 82 us per frame in all; "
              "the latency fixes only the sum, split evenly"},
             {"device", "DriverRxCost", "41us", "see DriverTxCost"},
         }});

    // Seed 003's node, predicted blind: every value is a hardware fact, a driver or OS default,
    // or a stated scaling of a calibrated profile. Clock ratio to the PIII-450: 2083 / 450 =
    // 4.6; memory-bound work scales less (DDR333 against PC100: about 2.7x the bandwidth).
    c.push_back(
        {"host",
         "athlonxp2800-fbsd47",
         "AMD Athlon XP 2800+ (2083 MHz, 333 MHz FSB), 1 GB DDR, AMD-760MPX, 64-bit/66 MHz PCI, "
         "FreeBSD 4.7 (tuned), GM",
         {
             {"bus", "Width", "64", kSeed003 + " sec. 4: 64bit/66Mhz PCI bus"},
             {"bus", "Clock", "66", kSeed003 + " sec. 4"},
             {"bus", "BurstSize", "512",
              "bursts broken by the master latency timer: 64 clocks (the BIOS default kept "
              "from the PIII profile) of 8 bytes at 66 MHz less overhead, rounded to 512 B"},
             {"bus", "TransactionOverhead", "4",
              "PCI 2.2: arbitration + address + turnaround, about 4 clocks (as PIII profile)"},
             {"bus", "ReadLatency", "8",
              "AMD-762 northbridge memory read: ~120 ns DDR access = 8 clocks at 66 MHz"},
             {"bus", "WriteLatency", "1", "posted writes into the north bridge"},
             {"bus", "PioCyclesPerWord", "1",
              "CPU writes to PCI memory are posted and combined into bursts by the AMD-762 "
              "(write combining), one 64-bit word per clock"},
             {"cpu", "SyscallCost", "1.5us",
              "PIII-450 / Linux 2.2 value (6 us) scaled by the clock ratio 4.6 (1.3 us), "
              "rounded up for the cache misses of the socket layer; FreeBSD's syscall path "
              "is comparable"},
             {"cpu", "CopyBandwidth", "8000Mbps",
              "copyin/copyout at ~1 GB/s: DDR333 (2.7 GB/s peak) read+write memcpy; no "
              "checksum in the copy, the Pro/1000 offloads TCP/UDP checksums (if_em.h "
              "EM_CHECKSUM_FEATURES CSUM_TCP|CSUM_UDP)"},
             {"cpu", "InterruptCost", "1.5us",
              "PIII-450 value (4 us) scaled by the clock ratio (0.9 us) plus one uncached "
              "PCI read of the interrupt cause register (~0.5 us on 66 MHz PCI)"},
             {"cpu", "TxPacketCost", "1.7us",
              "PIII-450 / Linux 2.2 TCP value (8 us) scaled by the clock ratio 4.6"},
             {"cpu", "Speed", "4.6",
              "clock ratio to the PIII-450 (2083 / 450), as the costs above; both cores "
              "execute out of order"},
             {"cpu", "RxPacketCost", "2.2us",
              "PIII-450 / Linux 2.2 TCP value (10 us) scaled by the clock ratio 4.6"},
             {"cpu", "UdpTxPacketCost", "0.9us",
              "udp_output + ip_output without TCP's window, timer and ACK work: about half of "
              "TxPacketCost (estimate)"},
             {"cpu", "UdpRxPacketCost", "1.1us",
              "ip_input + udp_input: about half of RxPacketCost (estimate)"},
             {"stack", "RcvBufMultiplier", "1.0",
              "FreeBSD grants SO_RCVBUF as asked (sbreserve) and advertises the whole free "
              "space (tcp_output: sbspace)"},
             {"stack", "Timestamps", "true", "FreeBSD 4.7 net.inet.tcp.rfc1323=1 (default)"},
             {"stack", "WindowScaling", "true", "FreeBSD 4.7 net.inet.tcp.rfc1323=1 (default)"},
             {"stack", "DelAckCount", "2", "FreeBSD ACKs every second full-sized segment"},
             {"stack", "DelAckTimeout", "100ms", "FreeBSD 4.7 net.inet.tcp.delacktime=100 ms"},
             {"stack", "InitialCwnd", "4",
              "FreeBSD 4.7 net.inet.tcp.local_slowstart_flightsize=4 (peers on the local "
              "subnet)"},
             {"stack", "DefaultSocketBuffer", "262144",
              "'socket and networking parameters tuned' (" + kSeed003 + " sec. 4): "
              "net.inet.tcp.sendspace/recvspace raised from 32768/65536 to 256 KB with "
              "kern.ipc.maxsockbuf to match (assumption: the usual tuning for Gigabit "
              "Ethernet in 2003; it exceeds the bandwidth-delay product, ~25 KB)"},
             {"gm", "SendCost", "300ns",
              "gm_send_with_callback(): the P200 value (1080 ns, mostly the token's PIO over "
              "the 430VX) with the call's ~200 cycles at 2 GHz (100 ns) and a 32-byte token "
              "posted over 64-bit/66 MHz PCI (4 clocks + overhead, ~100 ns), rounded up"},
             {"gm", "PollInterval", "50ns",
              "one empty gm_receive(): ~40 cycles plus a cache-line reload of the receive "
              "queue DMA'd by the NIC (estimate)"},
             {"gm", "EventCost", "150ns",
              "gm_receive() returning an event: P200 value (600 ns, ~120 cycles) with a "
              "cache miss on the event DMA'd by the NIC at DDR latency"},
             {"gm", "ProvideCost", "150ns",
              "gm_provide_receive_buffer(): bookkeeping and a posted PIO write (estimate)"},
             {"gm", "SendTokens", "32", "GM 1.x port default (as the P200 profile)"},
             {"gm", "ReceiveTokens", "32", "GM 1.x port default (as the P200 profile)"},
             {"cpu", "ComputeSlice", "20ms",
              "FreeBSD 4.7 libc_r, the thread library LA-MPI-TCP-ED uses (" + kSeed003 +
              " sec. 4), schedules its threads in user space: TIMESLICE_USEC 20000 "
              "(pthread_private.h); a thread woken by a socket event runs when the computing "
              "thread's slice has expired at a scheduling signal"},
             {"cpu", "SchedulerTick", "10ms",
              "libc_r CLOCK_RES_USEC 10000: the period of its scheduling signal (ITIMER_PROF)"},
             // Sustained compute rates of the NAS kernels, per process. No NPB figure for this
             // CPU was found; derived from its peak and memory bandwidth (/work notes
             // npb-rates.md): 2 x87 flops per cycle at 2083 MHz (4.2 Gflop/s; SSE is single
             // precision), DDR333 on a 333 MHz FSB (2.7 GB/s peak, ~1-1.9 GB/s sustained),
             // with the fractions of peak g77 -O3 codes of the era sustain; every per-rank
             // working set (1/4..1/9 of a class B or C grid) is far beyond the 512 KB L2.
             {"npb", "BtRate", "300",
              "BT: 5x5 block solves bound by x87 throughput, ~7 % of peak (range 220-400)"},
             {"npb", "SpRate", "200",
              "SP: scalar pentadiagonal sweeps with low arithmetic intensity, bound by memory "
              "bandwidth, ~5 % of peak (range 140-270)"},
             {"npb", "LuRate", "340",
              "LU: SSOR block sweeps, ~8 % of peak (range 250-450)"},
             {"npb", "MgRate", "260",
              "MG: 27-point stencils streaming 4-17 M points per rank, bandwidth-bound "
              "(range 180-350)"},
             {"npb", "IsRate", "25",
              "IS: bucket counting and ranking with random accesses to histograms larger than "
              "the L2, latency-bound: 40 ns per key for its three passes (range 15-40 Mkeys/s)"},
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
             {"coalescer", "JumboTuning", "true",
              "acenic: 'a default set of tuning parameters ... depending on whether or not the "
              "user enables Jumbo frames' (ace_init: jumbo when the MTU exceeds 1500)"},
             {"coalescer", "JumboTimeout", "30us", "acenic DEF_JUMBO_RX_COAL"},
             {"coalescer", "JumboMaxFrames", "6", "acenic DEF_JUMBO_RX_MAX_DESC"},
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
    // Seed 002's five cards under their Windows NT drivers, and NT's TCP/IP loopback (the path
    // WinSock takes between two processes on one host). Prices: seed 002 Table 2 (September
    // 1999); they are not attributes and feed Table 4 only.
    c.push_back(
        {"nic",
         "fa310tx",
         "NetGear FA310TX 100BASE-TX Fast Ethernet (Lite-On PNIC, tulip class), NT driver",
         {
             {"market", "PriceUsd", "24.95", kSeed002 + " Table 2: MSRP $24.95"},
             {"device", "DataRate", "100Mbps", kSeed002 + " Table 2: IEEE 802.3u 100BASE-TX"},
             {"device", "RxFifoSize", "16384",
              "controller FIFO plus the receive ring's first buffers (estimate; the model's "
              "smallest FIFO holds a jumbo frame)"},
             {"device", "TxFifoSize", "16384", "as RxFifoSize"},
             {"device", "PauseHighWater", "12288", "within the FIFO (802.3x seldom engaged)"},
             {"device", "PauseLowWater", "4096", "within the FIFO"},
             {"device", "DmaReadBurst", "64", "tulip-class bus master: 16-longword bursts"},
             {"device", "DmaWriteBurst", "64", "as DmaReadBurst"},
             {"device", "DriverTxCost", "3us", "NDIS miniport send path per frame (estimate)"},
             {"device", "DriverRxCost", "3us", "NDIS miniport receive path per frame (estimate)"},
             {"device", "NicTxCost", "1us", "hardware DMA engine, no firmware processor"},
             {"device", "NicRxCost", "1us", "hardware DMA engine, no firmware processor"},
             {"coalescer", "Enabled", "false",
              "Fast Ethernet NDIS drivers of 1999 interrupt per frame"},
         }});
    c.push_back(
        {"nic",
         "giganet",
         "GigaNet cLAN GNN1000 (1.25 Gb/s VIA hardware), TCP/IP over its LAN emulation driver",
         {
             {"market", "PriceUsd", "795", kSeed002 + " Table 2: MSRP $795"},
             {"device", "DataRate", "1250Mbps", kSeed002 + " Table 2: 1.25 Gbps full duplex"},
             {"device", "RxFifoSize", "65536", "cLAN ASIC buffering (estimate)"},
             {"device", "TxFifoSize", "65536", "cLAN ASIC buffering (estimate)"},
             {"device", "PauseHighWater", "40960",
              "cLAN is a credit-based lossless fabric: modelled as 802.3x flow control"},
             {"device", "PauseLowWater", "16384", "as PauseHighWater"},
             {"device", "DriverTxCost", "3us",
              "LANE miniport: wrap the Ethernet frame in a VI send descriptor (estimate)"},
             {"device", "DriverRxCost", "3us",
              "LANE miniport: VI receive completion to an NDIS indication (estimate)"},
             {"device", "NicTxCost", "2us", "cLAN ASIC: VIA doorbell and descriptor processing"},
             {"device", "NicRxCost", "2us", "cLAN ASIC: VIA descriptor processing"},
             {"coalescer", "Enabled", "false",
              "the LANE driver takes a completion interrupt per VI receive"},
         }});
    c.push_back(
        {"nic",
         "gnic2-nt",
         "Packet Engines GNIC-II (Hamachi), Packet Engines NT 4 driver",
         {
             {"market", "PriceUsd", "995", kSeed002 + " Table 2: $995"},
             {"device", "RxFifoSize", "65536", "Hamachi on-chip FIFO (as the Linux profile)"},
             {"device", "TxFifoSize", "65536", "Hamachi on-chip FIFO"},
             {"device", "PauseHighWater", "40960", "chip default"},
             {"device", "PauseLowWater", "16384", "chip default"},
             {"device", "DriverTxCost", "3us", "NDIS miniport send path per frame (estimate)"},
             {"device", "DriverRxCost", "3us", "NDIS miniport receive path per frame (estimate)"},
             {"device", "NicTxCost", "1us", "Hamachi: hardware DMA, no firmware"},
             {"device", "NicRxCost", "1us", "Hamachi: hardware DMA, no firmware"},
             {"coalescer", "Enabled", "true",
              "Hamachi RxIntControl: min_pkt, max_gap and max_latency (hamachi.c: 'The "
              "Hamachi chipset supports 3 parameters each for Rx and Tx')"},
             {"coalescer", "GapTimeout", "200us",
              "max_gap, the inter-packet gap that raises the interrupt (8.192 us units): the "
              "NT driver's value is unknown; calibrated once on the WinSock latency, " +
                  kSeed002 + " Table 3 row 16. A gap timer, unlike a timer from the first "
                  "frame, is restarted by the reply's frames, so an early ACK cannot shorten "
                  "the wait"},
             {"coalescer", "Timeout", "0s",
              "max_latency, the absolute limit: not reached by PingPong's bursts (0: none)"},
             {"coalescer", "MaxFrames", "24",
              "min_pkt: 0x18, the hamachi.c default 'selected by testing on a dual processor "
              "PIII-450'"},
         }});
    c.push_back(
        {"nic",
         "sk9841",
         "SysKonnect SK-9841 (XMAC II, 1000BASE-LX), SK-98xx NT 4 driver",
         {
             {"market", "PriceUsd", "729", kSeed002 + " Table 2: MSRP $729"},
             {"device", "RxFifoSize", "65536", "SK-98xx on-board SRAM, RX queue share"},
             {"device", "TxFifoSize", "65536", "SK-98xx on-board SRAM, TX queue share"},
             {"device", "PauseHighWater", "40960", "driver default flow-control thresholds"},
             {"device", "PauseLowWater", "16384", "driver default flow-control thresholds"},
             {"device", "DriverTxCost", "3us", "NDIS miniport send path per frame (estimate)"},
             {"device", "DriverRxCost", "3us", "NDIS miniport receive path per frame (estimate)"},
             {"device", "NicTxCost", "1us", "XMAC II + on-board BMU, no firmware processor"},
             {"device", "NicRxCost", "1us", "XMAC II + on-board BMU, no firmware processor"},
             {"txcoalescer", "Enabled", "false",
              "every transmit completion interrupts (no moderation): with the receive "
              "interrupts, ~4 interrupts per 2 data segments and their ACK cap the SK-9841 "
              "near the paper's 17 MB/s (" + kSeed002 + " sec. 6.3.2)"},
             {"device", "DriverTxCleanCost", "15us",
              "per sent frame, in the transmit-completion interrupt: free the descriptor and "
              "NdisMSendComplete up through tcpip.sys; calibrated once on the SK-9841 peaks "
              "(17 and 17.4 MB/s, " + kSeed002 + " sec. 6.3.2). Not on the 1-byte latency "
              "path, which stays near Table 3 row 18"},
             {"coalescer", "Enabled", "false",
              "no interrupt moderation by default: its WinSock latency is the lowest of the "
              "gigabit cards, " + kSeed002 + " Table 3 row 18"},
         }});
    c.push_back(
        {"nic",
         "ga620",
         "NetGear GA620 (Alteon Tigon 2), NetGear NT 4 driver",
         {
             {"market", "PriceUsd", "299.99", kSeed002 + " Table 2: MSRP $299.99"},
             {"device", "RxFifoSize", "65536", "Tigon 2: 1 MB SRAM, receive share"},
             {"device", "TxFifoSize", "65536", "Tigon 2: 1 MB SRAM, transmit share"},
             {"device", "PauseHighWater", "40960", "firmware default thresholds"},
             {"device", "PauseLowWater", "16384", "firmware default thresholds"},
             {"device", "DmaReadBurst", "64",
              "Tigon 2 host-read DMA bursts, as the ACEnic profile (the same chip)"},
             {"device", "DriverTxCost", "3us", "NDIS miniport send path per frame (estimate)"},
             {"device", "DriverRxCost", "3us", "NDIS miniport receive path per frame (estimate)"},
             {"device", "NicTxCost", "6us", "Tigon 2 firmware on an 88 MHz MIPS core per frame"},
             {"device", "NicRxCost", "6us", "Tigon 2 firmware on an 88 MHz MIPS core per frame"},
             {"coalescer", "Enabled", "true", "the firmware's receive coalescing ticks"},
             {"coalescer", "Timeout", "480us",
              "the NT driver's receive coalescing ticks; calibrated once on the two GA620 "
              "latencies together (" + kSeed002 + " Table 3 rows 19-20, 'more than double' "
              "the other cards): the model cannot make MPI/Pro the faster of the two, which "
              "the paper calls unexpected, so the timer splits the error between them"},
             {"coalescer", "MaxFrames", "4",
              "coalesced receive descriptors that raise the interrupt at once (estimate, "
              "checked on the GA620 peaks, 17 and 19 MB/s, sec. 6.3.2: with 8 a window of "
              "six segments waits for the timer and the peak falls below 10 MB/s)"},
         }});
    c.push_back(
        {"nic",
         "loopback-nt",
         "Windows NT TCP/IP loopback between two processes on one host (no NIC, no wire)",
         {
             {"device", "HostDma", "false", "the loopback never leaves host memory"},
             {"device", "DataRate", "100Gbps",
              "no wire: the datagram's one copy is TxCopy's"},
             {"device", "Mtu", "1500",
              "NT 4's loopback route MTU (assumption: tcpip.sys uses the first adapter's MTU)"},
             {"device", "TxCopy", "true",
              "tcpip.sys's loopback transmit copies the datagram before queueing it (the "
              "sender's buffer is released at once), on the sending CPU: with it the NT 4 "
              "WinSock loopback peaks near the paper's 31 MB/s and NT5's faster copy lifts its "
              "peak as the paper's 39 MB/s (" + kSeed002 + " sec. 6.3.1)"},
             {"device", "HardwareInterrupt", "false",
              "no NIC: the queued datagram is delivered by a worker (a deferred call), not by "
              "an interrupt"},
             {"device", "DriverTxCost", "0s",
              "the queueing is part of the host's TxPacketCost"},
             {"device", "DriverRxCost", "10us",
              "the loopback worker's dispatch per datagram; calibrated once on the WinSock "
              "loopback latencies, " + kSeed002 + " Table 3 rows 2 and 6 (74 and 76.4 us)"},
             {"device", "NicTxCost", "0s", "no NIC"},
             {"device", "NicRxCost", "0s", "no NIC"},
             {"coalescer", "Enabled", "false", "every datagram is handed over at once"},
         }});
    // Intel PRO/1000 MT Server (82545EM) under FreeBSD 4.7's em driver. Interrupt delays from
    // the driver's if_em.h (Intel, 2001-2003, FreeBSD 4 branch): TxIntDelay EM_TIDV = 64 and
    // TxAbsIntDelay EM_TADV = 64 ticks of 1.024 us; RxIntDelay EM_RDTR = 0 (the note warns
    // that other values may hang the adapter), which leaves RxAbsIntDelay (EM_RADV) without
    // effect: receive interrupts are immediate, transmit completions are coalesced.
    const std::vector<ProfileValue> pro1000 = {
        {"device", "RxFifoSize", "49152",
         "82545EM 64 KB packet buffer, receive share PBA = 48 KB (if_em.h EM_DEFAULT_PBA 0x30)"},
        {"device", "TxFifoSize", "16384", "82545EM packet buffer, transmit share 64 - 48 KB"},
        {"device", "PauseHighWater", "47104",
         "em: fc_high_water = receive packet buffer less ~2 KB (one maximum frame)"},
        {"device", "PauseLowWater", "45604", "em: fc_low_water = high water - 1500"},
        {"device", "TxRingSize", "256", "if_em.h EM_MAX_TXD 256"},
        {"device", "RxRingSize", "256", "if_em.h EM_MAX_RXD 256"},
        {"device", "DmaReadBurst", "512",
         "82545EM host DMA: bursts to the host bridge's disconnect (the bus BurstSize)"},
        {"device", "DmaWriteBurst", "512", "as DmaReadBurst"},
        {"device", "DriverTxCost", "0.8us",
         "em_encap: descriptor setup and the tail-register write, ~1600 cycles at 2 GHz "
         "(estimate; the PIII profiles' 3-4 us scaled by the clock ratio)"},
        {"device", "DriverRxCost", "0.8us",
         "em_process_receive_interrupts per frame: mbuf swap and hand-off (estimate, as "
         "DriverTxCost)"},
        {"device", "DriverTxCleanCost", "0.3us",
         "em_clean_transmit_interrupts per descriptor: m_freem and the ring update (estimate)"},
        {"device", "NicTxCost", "1us",
         "82545EM: hardware DMA engines, no firmware processor (as the SK-NET and GNIC-II "
         "profiles)"},
        {"device", "NicRxCost", "1us", "as NicTxCost"},
    };
    {
        std::vector<ProfileValue> on = pro1000;
        on.insert(on.end(),
                  {{"coalescer", "Enabled", "false",
                    "if_em.h EM_RDTR 0: receive interrupts are not delayed"},
                   {"txcoalescer", "Enabled", "true", "if_em.h EM_TIDV 64: delayed"},
                   {"txcoalescer", "Timeout", "65536ns",
                    "if_em.h EM_TIDV = EM_TADV = 64 ticks x 1.024 us"},
                   {"txcoalescer", "MaxFrames", "256",
                    "no frame-count limit; bounded by the ring (EM_MAX_TXD)"}});
        c.push_back({"nic",
                     "pro1000mt",
                     "Intel PRO/1000 MT Server (82545EM), FreeBSD 4.7 em driver, interrupt "
                     "coalescing at the driver defaults",
                     on});
        std::vector<ProfileValue> off = pro1000;
        off.insert(off.end(),
                   {{"coalescer", "Enabled", "false",
                     kSeed003 + " sec. 3.1: all interrupt coalescing turned off"},
                    {"txcoalescer", "Enabled", "false",
                     kSeed003 + " sec. 3.1: all interrupt coalescing turned off (EM_TIDV = "
                                "EM_TADV = 0: an interrupt per sent frame)"}});
        c.push_back({"nic",
                     "pro1000mt-nocoal",
                     "Intel PRO/1000 MT Server (82545EM), FreeBSD 4.7 em driver, all "
                     "interrupt coalescing off",
                     off});
    }

    // ------------------------------------------------------------------ LANai (Myrinet)
    // The GM 1.5 control-program costs are in LANai cycles and the same in every profile: the
    // firmware is the same, the processor differs. They are calibrated once on the LANai9
    // against seed 001 sec. 4.3 (one-way latency ~11-12.8 us, of which ~6 us instruction
    // execution; gap g = 13.2 us for 8-byte messages with acknowledgements) and the
    // uni-directional gm_allsize peak (107 MB/s).
    const std::vector<ProfileValue> gm15 = {
        {"mcp", "MaxPayload", "4096", kSeed001 + " sec. 4.3: GM fragments messages into packets "
                                      "of at most 4 KB"},
        {"mcp", "DoorbellCycles", "100", "GM 1.5 MCP: take a send token (calibrated, sec. 4.3)"},
        {"mcp", "SdmaCycles", "200", "GM 1.5 MCP: set up a fragment's host DMA (calibrated)"},
        {"mcp", "SendCycles", "120", "GM 1.5 MCP: header, route, start send DMA (calibrated)"},
        {"mcp", "RecvCycles", "150", "GM 1.5 MCP: check, match, set up RDMA (calibrated)"},
        {"mcp", "AckCycles", "390", "GM 1.5 MCP: send or retire an ACK (calibrated)"},
        {"mcp", "EventCycles", "150", "GM 1.5 MCP: build and DMA an event (calibrated)"},
        {"mcp", "ProvideCycles", "100", "GM 1.5 MCP: take a receive token (estimate)"},
    };
    auto lanaiProfile = [&gm15](std::string name,
                                std::string description,
                                std::vector<ProfileValue> values) {
        values.insert(values.end(), gm15.begin(), gm15.end());
        return Profile{"lanai", std::move(name), std::move(description), std::move(values)};
    };
    c.push_back(lanaiProfile(
        "lanai9",
        "Myricom M3M-PCI64B: LANai9 at 133 MHz, 2 MB SRAM, Myrinet-2000 (2 Gb/s) link",
        {
            {"lanai", "Clock", "133", kSeed001 + " sec. 2: LANai9 up to 133 MHz on the PCI64B"},
            {"lanai", "SramSize", "2097152", kSeed001 + " sec. 3: 2 Mbytes"},
            {"lanai", "DmaBurst", "256",
             "GM default: 256-byte transfers between chipset and board (SISSA Myrinet-2000 "
             "notes, GM gmarch.c)"},
            {"lanai", "TranslationMissCycles", "600",
             "calibrated on " + kSeed001 + " Table 1: the 1st pattern walks pages not yet "
             "translated (105/113 MB/s), the later ones reuse translated pages (124/128)"},
            {"link", "DataRate", "2Gbps", kSeed001 + " sec. 2: Myrinet-2000"},
        }));
    c.push_back(lanaiProfile(
        "lanai72",
        "Myricom M2L-PCI64A: LANai 7.2 at 66 MHz, 2 MB SRAM, Myrinet 1.28 Gb/s link",
        {
            {"lanai", "Clock", "66", "LANai 7.2: 66 MHz (Myricom M2L-PCI64A product data)"},
            {"lanai", "SramSize", "2097152", "M2L-PCI64A-2: 2 MB"},
            {"lanai", "DmaBurst", "256", "GM default transfer size"},
            {"link", "DataRate", "1.28Gbps", "Myrinet 1280 (M2L) links"},
            {"board", "PciClock", "33",
             "the M2L-PCI64A is a 64-bit/33 MHz PCI board (66 MHz came with the PCI64B), so a "
             "66 MHz slot runs at 33 MHz with it"},
        }));
    c.push_back(lanaiProfile(
        "lanai4",
        "Myricom M2F-PCI32: LANai 4.x at 33 MHz, 1 MB SRAM, Myrinet 1.28 Gb/s link",
        {
            {"lanai", "Clock", "33", "LANai 4.x: one cycle per PCI clock, 33 MHz"},
            {"lanai", "SramSize", "1048576", "M2F-PCI32C: 1 MB"},
            {"lanai", "DmaBurst", "256", "GM default transfer size"},
            {"link", "DataRate", "1.28Gbps", "Myrinet 1280 links"},
        }));

    // ------------------------------------------------------------------ HPVM hosts (seed 004)
    // Targets: "machine" (the chipset the machine has), "cpu", "bus" (the PCI slot).
    c.push_back(
        {"host",
         "pii300-kayak-nt4",
         "HP Kayak: 2x Pentium II 300 MHz, 66 MHz FSB, 440LX, 32-bit/33 MHz PCI, Windows NT 4",
         {
             {"machine", "Chipset", "440lx", kSeed004 + " sec. 6: the Kayak's 440LX"},
             {"bus", "Width", "32", "the LANai 4.x board (M2F-PCI32) is a 32-bit PCI card"},
             {"bus", "Clock", "33", "PCI 2.1 at 33 MHz on the 440LX"},
             {"cpu", "Speed", "0.667",
              "library code runs on the same P6 core as the PIII-450 reference: 300/450"},
             {"cpu", "CopyBandwidth", "1600Mbps",
              "memcpy from a cached source into lines not in cache: each line crosses the "
              "66 MHz x 8 B FSB (533 MB/s) twice (read for ownership, write-back), at ~75 % "
              "efficiency: 200 MB/s (estimate; STREAM-class machines of the era 150-200 MB/s)"},
         }});
    c.push_back(
        {"host",
         "pii450-netserver-nt4",
         "HP Netserver LPR: 2x Pentium II 450 MHz, 100 MHz FSB, 440BX, 32-bit/33 MHz PCI, "
         "Windows NT 4",
         {
             {"machine", "Chipset", "440bx", kSeed004 + " sec. 6: the Netserver's 440BX"},
             {"bus", "Width", "32", "the LANai 4.x board (M2F-PCI32) is a 32-bit PCI card"},
             {"bus", "Clock", "33", "PCI 2.1 at 33 MHz on the 440BX"},
             {"cpu", "Speed", "1.0", "Pentium II 450: the reference core and clock"},
             {"cpu", "CopyBandwidth", "2400Mbps",
              "as the Kayak with the 100 MHz FSB (800 MB/s): 300 MB/s (estimate)"},
         }});

    // Seed 002: two dual Pentium III 450 MHz hosts, 512 MB, NT 4 SP5 or Windows 2000 ("NT5").
    // The values common to both systems; the OS-specific ones follow.
    const std::vector<ProfileValue> ntHost = {
        {"bus", "Width", "32",
         kSeed002 + " sec. 5.1 names no chipset; dual PIII-450 boards of 1999 (440BX/GX) have "
         "32-bit/33 MHz slots, so the 64-bit cards run as 32-bit cards (assumption)"},
        {"bus", "Clock", "33", "as Width"},
        {"bus", "BurstSize", "256", "DMA bursts broken at 256 B (master latency timer)"},
        {"bus", "TransactionOverhead", "4", "PCI 2.1: arbitration, address, turnaround"},
        {"bus", "ReadLatency", "10", "memory read: ~10 clocks of initial target latency (440BX)"},
        {"bus", "WriteLatency", "1", "posted writes into the bridge's write buffer"},
        {"cpu", "Speed", "1.0", "Pentium III 450: the reference core and clock"},
        {"stack", "Timestamps", "false",
         "NT 4 and Windows 2000 default Tcp1323Opts = 0: no RFC 1323 options"},
        {"stack", "WindowScaling", "false", "as Timestamps"},
        {"stack", "DelAckCount", "2", "NT ACKs every second full-sized segment"},
        {"stack", "DelAckTimeout", "200ms",
         "NT 4 / Windows 2000 TcpDelAckTicks default 2 (200 ms)"},
        {"stack", "NoDelay", "false",
         "WinSock default: Nagle on unless the application sets TCP_NODELAY"},
        {"stack", "InitialCwnd", "2", "NT 4 SP3+ / Windows 2000 initial window of 2 segments"},
        {"stack", "QuantizeWindow", "true",
         "NT rounds its receive window to whole segments of the connection's MSS"},
    };
    std::vector<ProfileValue> nt4 = ntHost;
    nt4.insert(
        nt4.end(),
        {{"stack", "DefaultSocketBuffer", "8760",
          "NT 4 TcpWindowSize default on Ethernet: 8192 rounded up to six 1460-byte "
          "segments (8760)"},
         {"stack", "SndBufFraction", "0.9352",
          "AFD's default SO_SNDBUF is 8192 bytes: 8192 / 8760 (rounded up)"},
         {"cpu", "SyscallCost", "25us",
          "a blocking WinSock send() or recv(): ws2_32 -> msafd -> AFD IRP, and for recv() "
          "the wait and the thread's wake-up (~11000 cycles); calibrated once with the "
          "per-segment costs below on the WinSock Fast Ethernet and loopback latencies (" +
          kSeed002 + " Table 3 rows 2, 9)"},
         {"cpu", "CopyBandwidth", "880Mbps",
          "memcpy of buffers larger than the 512 KB L2 on PC100 SDRAM (~110 MB/s); calibrated "
          "once on the copy-bound shared-memory peaks of MPI/Pro and PaTENT under NT 4 (" +
          kSeed002 + " sec. 6.3.1: 107 and just over 100 MB/s)"},
         {"cpu", "InterruptCost", "20us",
          "NDIS 4 interrupt, DPC and miniport handler on a PIII-450 (estimate): per-frame "
          "interrupts, not the TCP/IP path, are what caps the uncoalesced gigabit cards at "
          "~17 MB/s while their 1-byte latency stays near 90 us (" + kSeed002 +
          " Table 3, sec. 6.3.2)"},
         {"cpu", "TxPacketCost", "7us",
          "tcpip.sys transmit path per segment (estimate): the GigaNet WinSock curve reaches "
          "38 MB/s at 8 KB (" + kSeed002 + " sec. 6.3.2), which leaves ~20 us per 1460-byte "
          "segment for the whole receive path"},
         {"cpu", "RxPacketCost", "7us",
          "tcpip.sys receive path per segment and the AFD indication (estimate, as "
          "TxPacketCost)"}});
    c.push_back({"host",
                 "piii450-nt4",
                 "2x Pentium III 450 MHz, 512 MB, 32-bit/33 MHz PCI, Windows NT 4 SP5",
                 nt4});
    std::vector<ProfileValue> nt5 = ntHost;
    nt5.insert(
        nt5.end(),
        {{"stack", "DefaultSocketBuffer", "17520",
          "Windows 2000 TcpWindowSize default on Ethernet: twelve 1460-byte segments"},
         {"stack", "SndBufFraction", "0.4676",
          "AFD's default SO_SNDBUF is 8192 bytes: 8192 / 17520"},
         {"cpu", "SyscallCost", "25us", "as NT 4 (estimate)"},
         {"cpu", "CopyBandwidth", "1000Mbps",
          "the same memory as NT 4; calibrated once on the NT5 shared-memory peaks of MPI/Pro "
          "and PaTENT (" + kSeed002 + " sec. 6.3.1: 122 MB/s), which Windows 2000 reaches on "
          "the same hardware (assumption: a faster kernel memcpy path)"},
         {"cpu", "InterruptCost", "27us",
          "NDIS 5 interrupt and DPC path, 7 us above NT 4; calibrated once on the Fast "
          "Ethernet latencies under NT5, 10-15 % above NT 4 (" + kSeed002 + " sec. 6.2)"},
         {"cpu", "TxPacketCost", "7us", "as NT 4 (estimate)"},
         {"cpu", "RxPacketCost", "7us", "as NT 4 (estimate)"}});
    c.push_back({"host",
                 "piii450-nt5",
                 "2x Pentium III 450 MHz, 512 MB, 32-bit/33 MHz PCI, Windows 2000 (NT5)",
                 nt5});

    // ------------------------------------------------------------------ host bridges
    // Targets: "bridge" (HostBridge: the CPU-to-PCI PIO path), "bus" (PciBus timing).
    const std::vector<ProfileValue> pci21 = {
        {"bus", "BurstSize", "256", "DMA bursts broken at 256 B (master latency timer)"},
        {"bus", "TransactionOverhead", "4", "PCI 2.1: arbitration, address, turnaround"},
        {"bus", "ReadLatency", "10", "memory read: ~10 clocks of initial target latency"},
        {"bus", "WriteLatency", "1", "posted writes into the bridge's write buffer"},
        {"bus", "PioReadLatency", "8",
         "LANai 4.x target read of an SRAM word: ~8 clocks (estimate; no datasheet found)"},
        {"bridge", "LineBytes", "32",
         "Pentium II write-combining buffers are 32-byte lines flushed as one burst (Intel "
         "SDM vol. 3 sec. 10.3.1)"},
        {"bridge", "FsbCyclesPerLine", "6",
         "a 32-byte line on the 64-bit FSB: request phase and 4 data transfers, ~6 clocks"},
    };
    auto chipset = [&pci21](std::string name,
                            std::string description,
                            std::vector<ProfileValue> values) {
        values.insert(values.begin(), pci21.begin(), pci21.end());
        return Profile{"chipset", std::move(name), std::move(description), std::move(values)};
    };
    c.push_back(chipset(
        "440lx",
        "Intel 440LX AGPset (82443LX), 66 MHz FSB: robust under sustained PIO",
        {
            {"bridge", "FsbClock", "66", kSeed004 + " sec. 6: 66 MHz front-side bus"},
            {"bridge", "QueueLines", "4",
             "CPU-to-PCI posted-write buffer depth (estimate: the 82443 family keeps 4 host "
             "transactions outstanding)"},
            {"bridge", "MaxBurstLines", "2",
             "PCI write bursts of at most two lines (estimate: one line per transaction caps "
             "PIO at 89 MB/s, below FM 2.1's 92 MB/s (" + kSeed004 + " sec. 2); merging "
             "the whole queue would beat the 440BX's 115 MB/s peak, which sec. 6 says is "
             "the higher)"},
            {"bridge", "FullQueue", "Stall",
             kSeed004 + " sec. 6: the 440LX's PIO performance is robust at saturation"},
            {"bridge", "ReadOverhead", "400ns",
             "uncached read: FSB request, bridge and return at 66 MHz beyond the PCI "
             "transaction, ~0.8 us in all (estimate)"},
        }));
    c.push_back(chipset(
        "440bx",
        "Intel 440BX AGPset (82443BX), 100 MHz FSB: 5-line posted-write queue that degrades "
        "under sustained PIO",
        {
            {"bridge", "FsbClock", "100", kSeed004 + " sec. 6: 100 MHz front-side bus"},
            {"bridge", "QueueLines", "5",
             kSeed004 + " sec. 6: 'the queue in the 440 BX is 5 cache lines deep, that is, "
                        "160 bytes'"},
            {"bridge", "MaxBurstLines", "0", "as the 440LX while the queue has room"},
            {"bridge", "FullQueue", "Retry",
             kSeed004 + " sec. 6 ('does not gracefully handle high-volume PIO'); the 82443BX "
                        "answers CPU cycles it cannot post with a retry (datasheet, host "
                        "interface); modelled as one PCI transaction per line until the queue "
                        "empties"},
            {"bridge", "SaturatedLineGap", "0ns",
             "no extra idle time: the per-transaction overhead alone sets the degraded rate"},
            {"bridge", "ReadOverhead", "300ns", "as the 440LX at 100 MHz FSB (estimate)"},
        }));

    // ------------------------------------------------------------------ FM versions
    // Targets: "fm" (FmContext: the host library), "lcp" (FmMcp: FM's LANai control program),
    // "lanai" (the LANai board as FM lays out its SRAM), "boot" (Pacing: off or probe).
    // Library costs are times on the reference host (PII/PIII-450).
    const std::vector<ProfileValue> fmCommon = {
        {"lanai", "BufferSize", "2088", kSeed004 + " sec. 3: 2080-byte packets (+ length)"},
        {"lanai", "SendBuffers", "4",
         "FM send queue in SRAM (estimate); the host reads the queue's state across PCI "
         "when it has used the slots its last read found free"},
        {"lanai", "ReceiveBuffers", "8", "FM receive buffers in SRAM (estimate)"},
        {"lanai", "FirmwareSize", "131072", "FM's control program and queues (estimate)"},
        {"fm", "PacketPayload", "2048", kSeed004 + " sec. 3: 2048 bytes of data per packet"},
        {"fm", "Credits", "32",
         "packets per peer (estimate; " + kSeed004 + " sec. 3: static allocation)"},
        {"fm", "MessageSendCost", "300ns",
         "FM_begin_message/FM_end_message (estimate, ~135 cycles)"},
        {"fm", "PacketSendCost", "1090ns",
         "per packet: credit, buffer and header work around the PIO; calibrated once on the "
         "440BX PIO peak (115 MB/s at 160-byte messages, " + kSeed004 + " sec. 6)"},
        {"fm", "HandlerCost", "500ns", "per packet extracted: dispatch and accounting (estimate)"},
        {"fm", "MemoryProbeCost", "10ns",
         "load of the flag word (a cache hit) and its test, ~5 cycles"},
        {"fm", "SmtProbeCost", "45ns",
         "three dependent loads (queue head, queue entry, frame flag) and their tests"},
        {"fm", "AtomicCost", "57ns",
         kSeed004 + " sec. 5: a fetch-and-increment takes 85 ns (28 cycles) on a PII-300"},
        {"fm", "CacheMissCost", "150ns",
         "re-fetch of a line invalidated by the DMA or by the other CPU (estimate, 150-300 ns)"},
        {"lcp", "LoopCycles", "20", "one pass of the LCP's dispatch loop (estimate)"},
        {"lcp", "SendCycles", "36",
         "LANai 4.x per-packet send; calibrated once (with RecvCycles of FM 2.1) on FM 2.1's "
         "9 us one-way latency on the PII-300 (" + kSeed004 + " sec. 2)"},
        {"lcp", "NotifyCycles", "10", "PCI-poll versions: update the delivered count"},
    };
    auto fmVersion = [&fmCommon](std::string name,
                                 std::string description,
                                 std::vector<ProfileValue> values) {
        values.insert(values.begin(), fmCommon.begin(), fmCommon.end());
        return Profile{"fm", std::move(name), std::move(description), std::move(values)};
    };
    c.push_back(fmVersion(
        "fm21",
        "Fast Messages 2.1 (HPVM 1.0): single process per host, LANai register polling",
        {
            {"fm", "Notify", "PciPoll", kSeed004 + " sec. 4.1: earlier versions poll the LANai"},
            {"fm", "Intranode", "Loopback", kSeed004 + " sec. 5: loopback through the NIC"},
            {"fm", "ExtractCost", "20ns", "FM_extract entry without a lock (estimate)"},
            {"lcp", "RecvCycles", "36", "as SendCycles (calibrated together)"},
            {"boot", "Pacing", "off", "no pacing before HPVM 1.9"},
        }));
    c.push_back(fmVersion(
        "hpvm12",
        "HPVM 1.2: FM with multiprocess/thread safety, LANai register polling, NIC loopback",
        {
            {"fm", "Notify", "PciPoll", kSeed004 + " sec. 4.1"},
            {"fm", "Intranode", "Loopback", kSeed004 + " sec. 5"},
            {"fm", "ExtractCost", "90ns",
             "FM_extract with its thread-safety lock: call, uncontended lock and release, "
             "~40 cycles (estimate)"},
            {"lcp", "RecvCycles", "118",
             "multi-context control program: demultiplexes packets by program id and context "
             "(" + kSeed004 + " sec. 3); calibrated once on HPVM 1.2's 10.4 us (sec. 4.1)"},
            {"boot", "Pacing", "off", "no pacing before HPVM 1.9"},
        }));
    c.push_back(fmVersion(
        "hpvm19",
        "HPVM 1.9: memory-based notification, shared-memory transport, PIO pacing probe",
        {
            {"fm", "Notify", "Memory", kSeed004 + " sec. 4.1"},
            {"fm", "Intranode", "Smt", kSeed004 + " sec. 5"},
            {"fm", "ExtractCost", "90ns", "as HPVM 1.2"},
            {"lcp", "RecvCycles", "118", "as HPVM 1.2 (the same control program)"},
            {"boot", "Pacing", "probe", kSeed004 + " sec. 6: the boot-time PIO micro-benchmark"},
        }));

    // ------------------------------------------------------------------ MPI libraries
    // Targets: "mpi" (MpiRank, the protocol engine), "transport" (MpiTcpTransport).
    c.push_back(
        {"mpi",
         "lam",
         "LAM 6.3 with the C2C (client-to-client) TCP RPI, short/long switch at 128 KB",
         {
             {"mpi", "EagerLimit", "131072",
              kSeed000 + " sec. 4.2: switch-over configured to 128 KB instead of 64 KB"},
             {"mpi", "EagerInclusive", "false",
              kSeed000 + " sec. 4.2: 'messages of 128KB or longer be treated as long'"},
             {"mpi", "LongFirstBytes", "0",
              "LAM TCP RPI: a long message's first packet is its envelope; the body follows "
              "the receiver's ack (" + kSeed000 + " sec. 4.2)"},
             {"mpi", "EnvelopeBytes", "32", "LAM c2c_envl: eight 32-bit words"},
             {"mpi", "ReceiveCopy", "true",
              "the C2C layer reads message bodies into its own buffers and copies them out; "
              "with it the SK-NET peak is 226 Mbit/s against 210 in " + kSeed000 +
              " sec. 4.2 (without it the model's LAM equals raw TCP, 322)"},
             {"mpi", "SendOverhead", "5us", "estimate (to calibrate on seed 000 Fig. 3)"},
             {"mpi", "RecvOverhead", "5us", "estimate (to calibrate on seed 000 Fig. 3)"},
             {"transport", "SocketBuffer", "131104",
              kSeed000 + " sec. 4.2: switch-over point plus the C2C envelope"},
         }});
    c.push_back(
        {"mpi",
         "mpich",
         "MPICH 1.1.2 with the ch_p4 device: eager to 128000 bytes, then rendezvous",
         {
             {"mpi", "EagerLimit", "128000",
              kSeed000 + " sec. 4.2: default switch-over point 128000 bytes"},
             {"mpi", "EagerInclusive", "true", "ch_p4: short if length <= the limit"},
             {"mpi", "LongFirstBytes", "0", "rendezvous: no data before the request is answered"},
             {"mpi", "EnvelopeBytes", "40", "ch_p4 packet header (estimate)"},
             {"mpi", "ReceiveCopy", "true",
              "p4 receives every message into a p4 message buffer, which ch_p4 then copies "
              "into the user's buffer"},
             {"mpi", "SendOverhead", "5us", "estimate (to calibrate on seed 000 Fig. 4)"},
             {"mpi", "RecvOverhead", "5us", "estimate (to calibrate on seed 000 Fig. 4)"},
             {"transport", "EnvelopeWrite", "true",
              "p4 writes a message's header and its body with separate write() calls; with "
              "TCP_NODELAY a short message is two segments: SK-NET latency 94 us against 99 "
              "in " + kSeed000 + " sec. 4.2 (70 us with one write)"},
             {"transport", "SocketBuffer", "4096",
              kSeed000 + " sec. 4.2: SOCK_SNDBUF and SOCK_RCVBUF of 4096 bytes (p4's "
              "SOCK_BUFF_SIZE)"},
             {"transport", "SetSocketBuffer", "false",
              "p4 of MPICH 1.1 never applies SOCK_BUFF_SIZE on Linux: net_set_sockbuf_size is "
              "called only #ifdef SGI and the setsockopt(SO_RCVBUF/SO_SNDBUF) calls in "
              "net_accept are commented out, so the sockets keep the kernel's default buffers. "
              "The measurements agree: with 4 KB buffers (a 4 KB window) the GNIC-II's 274 us "
              "round trip (2 x 137 us, " + kSeed000 + " sec. 4.1) caps a transfer at 120 "
              "Mbit/s, yet MPICH reached 188 (sec. 4.2); and every 9 KB receive buffer of the "
              "SK-NET at MTU 9000 would overrun an 8 KB rcvbuf, yet its MPICH latency stayed at "
              "100 us"},
         }});
    c.push_back(
        {"mpi",
         "mpich-gm",
         "MPICH-GM 1.2.1.7b over GM 1.5: eager through registered bounce buffers, rendezvous "
         "zero-copy from registered memory",
         {
             {"library", "Transport", "gm", "MPICH-GM: the ch_gm device over GM ports"},
             {"mpi", "EagerLimit", "16000",
              kSeed001 + " sec. 4.5: the curve changes regime just above 12 KB (pivot 12288); "
              "NetPIPE's next size is 16381, so any limit from 12291 to 16380 gives that pivot: "
              "16000, MPICH-GM's 16 KB short-message limit less its headers"},
             {"mpi", "EagerInclusive", "true", "MPICH: short if length <= the limit"},
             {"mpi", "LongFirstBytes", "0", "rendezvous: the data follows the receiver's reply"},
             {"mpi", "EnvelopeBytes", "32", "MPICH-GM packet header (estimate)"},
             {"mpi", "ReceiveCopy", "false",
              "short data is copied out of the GM bounce buffer by the transport; long data "
              "lands in the user's buffer"},
             {"mpi", "SendOverhead", "6.4us",
              "P5-200 host: MPICH's ADI and the ch_gm send path (~1300 cycles), calibrated "
              "once on the 18 us one-byte latency of " + kSeed001 + " Fig. 10 (the only per-call "
              "cost on a ping-pong's critical path; bounce buffers reused from a free list)"},
             {"mpi", "RecvOverhead", "2us",
              "P5-200 host: posting and matching a receive (estimate; off a ping-pong's "
              "critical path, so the latency does not fix it)"},
             {"mpi", "ReferenceSpeed", "0.4",
              "the costs above are P5-200 times (" + kSeed001 + "); they scale on other hosts"},
             {"gmtransport", "BounceSize", "16064", "the eager limit plus envelope, rounded"},
         }});
    // VIA: raw M-VIA (vnettest's ping-pong as a zero-overhead eager exchange) and MVICH.
    std::vector<ProfileValue> mvia = {
        {"library", "Transport", "via", "M-VIA: VIA emulated over Ethernet by a kernel agent"},
        {"library", "Nics", "gnic2",
         kSeed000 + " sec. 3: M-VIA 0.01 drives the GNIC-I/II (and Fast Ethernet cards) only"},
        {"coalescer", "Enabled", "false",
         kSeed000 + " sec. 4.1: M-VIA's 16 us latency on the GNIC-II is below the 92 us receive "
         "coalescing of hamachi 0.07, so M-VIA's modified driver interrupts per frame"},
        {"via", "MaxTransfer", "32768",
         kSeed000 + " sec. 4.1: 32 KB, the largest data buffer M-VIA supports"},
        {"via", "PostCost", "3us", "descriptor and fast-trap doorbell on a PIII-450 (estimate)"},
        {"via", "CompletionCost", "1us", "polling the completion queue (estimate)"},
    };
    std::vector<ProfileValue> raw = mvia;
    raw.insert(raw.end(),
               {{"mpi", "EagerLimit", "32768", "vnettest: every message sent at once"},
                {"mpi", "EnvelopeBytes", "0", "vnettest sends bare VIA messages"},
                {"mpi", "SendOverhead", "0s", "no MPI library"},
                {"mpi", "RecvOverhead", "0s", "no MPI library"},
                {"mpi", "ReceiveCopy", "false", "no MPI library"}});
    c.push_back({"mpi",
                 "mvia",
                 "M-VIA 0.01 on the GNIC-II, as vnettest.c drives it (no MPI library)",
                 raw});
    std::vector<ProfileValue> mvich = mvia;
    mvich.insert(mvich.end(),
                 {{"mpi", "EagerLimit", "32736",
                   kSeed000 + " sec. 4.2: MVICH 0.02 ran up to 32 KB (M-VIA's limit); every "
                   "message that fits one descriptor with its header goes at once"},
                  {"mpi", "EnvelopeBytes", "32", "MVICH header (estimate)"},
                  {"mpi", "SendOverhead", "3us", "estimate (to calibrate on seed 000 Fig. 5)"},
                  {"mpi", "RecvOverhead", "3us", "estimate (to calibrate on seed 000 Fig. 5)"},
                  {"mpi", "ReceiveCopy", "true",
                   "eager data lands in MVICH's pre-posted VIA buffers and is copied to the "
                   "user's"}});
    c.push_back({"mpi", "mvich", "MVICH 0.02 over M-VIA 0.01 on the GNIC-II", mvich});

    // LA-MPI 1.4.5: one protocol engine (the MML) over its TCP and GM paths.
    std::vector<ProfileValue> lampi = {
        {"mpi", "EagerLimit", "16384",
         kSeed003 + " sec. 3: 'the eager message transfer protocol for messages up to 16 KB, "
         "then ... the rendezvous protocol'"},
        {"mpi", "EagerInclusive", "true", kSeed003 + " sec. 3: eager messages are <= 16 KB"},
        {"mpi", "LongFirstBytes", "0",
         kSeed003 + " sec. 3: the sender first sends 'a small fragment of the message' as the "
         "RTS; its data size is not stated, so the model's RTS is the header alone (estimate)"},
        {"mpi", "EnvelopeBytes", "64", "LA-MPI fragment header (estimate)"},
        {"mpi", "SendOverhead", "2us",
         "MML request bookkeeping on an Athlon XP 2800+ (estimate; seed 003 is predicted blind)"},
        {"mpi", "RecvOverhead", "2us", "MML matching (estimate, as SendOverhead)"},
        {"mpi", "ReferenceSpeed", "4.6",
         "the per-call costs here are estimated for the Athlon XP 2800+ of " + kSeed003},
        {"mpi", "UnexpectedCopy", "true",
         kSeed003 + " sec. 2: an unexpected message is held in library memory and copied "
         "when its receive is posted"},
    };
    std::vector<ProfileValue> lampiTcp = lampi;
    lampiTcp.insert(
        lampiTcp.end(),
        {{"mpi", "ReceiveCopy", "false",
          kSeed003 + " sec. 2.1: the TCP path reads a posted message straight from the socket "
          "into the user's buffer (only unexpected ones need library memory)"},
         {"transport", "SetSocketBuffer", "false",
          kSeed003 + " sec. 2.1: the TCP path 'relies on the operating system for its memory "
          "buffering'; the hosts' socket parameters are tuned by sysctl (sec. 4), so the "
          "sockets keep the host's defaults"},
         {"transport", "SelectPolling", "true",
          kSeed003 + " sec. 2.1: the TCP path's progress routine calls a non-blocking select() "
          "for its read and write events"},
         {"transport", "EnvelopeWrite", "false",
          "the TCP path sends a fragment's header and data with one writev() (estimate)"}});
    std::vector<ProfileValue> polling = lampiTcp;
    polling.push_back({"mpi", "Progress", "Polling",
                       kSeed003 + " sec. 2: the progress engine runs inside MPI calls"});
    c.push_back({"mpi", "lampi-tcp", "LA-MPI 1.4.5, TCP path (LA-MPI-TCP)", polling});
    std::vector<ProfileValue> event = lampiTcp;
    event.insert(event.end(),
                 {{"mpi", "Progress", "EventThread",
                   kSeed003 + " sec. 2: LA-MPI-TCP-ED runs the progress engine in an event "
                   "thread woken by socket events"},
                  {"mpi", "ThreadSwitchCost", "3.5us",
                   "FreeBSD 4.7 libc_r (" + kSeed003 + " sec. 4) switches threads in user "
                   "space: its scheduler polls the waiting descriptors and resets the signal "
                   "mask, two system calls at the host's SyscallCost (1.5 us), plus the "
                   "register save and restore (~0.5 us). Charged when the event thread wakes "
                   "for an arrival and when it wakes the main thread; sec. 3 blames the extra "
                   "latency of TCP-ED on these switches"}});
    c.push_back({"mpi",
                 "lampi-tcp-ed",
                 "LA-MPI 1.4.5, event-driven TCP path (LA-MPI-TCP-ED)",
                 event});
    std::vector<ProfileValue> lampiGm = lampi;
    lampiGm.insert(lampiGm.end(),
                   {{"library", "Transport", "gm", kSeed003 + " sec. 2.2: the GM path"},
                    {"mpi", "ReceiveCopy", "false",
                     "eager data is copied out of the GM receive buffer by the transport; "
                     "rendezvous data lands in the user's buffer"},
                    {"mpi", "UnexpectedCopy", "false",
                     kSeed003 + " sec. 2.2: 'the GM path also does not have to provide "
                     "temporary buffering for unexpected messages'"},
                    {"gmtransport", "BounceSize", "16448", "the eager limit plus header"}});
    c.push_back({"mpi", "lampi-gm", "LA-MPI 1.4.5, GM path (LA-MPI-GM)", lampiGm});

    // Seed 002: the message-passing layers under Windows NT. "winsock" is PingPong's WinSock
    // version: the blocking send()/recv() calls with no library above them.
    const std::vector<ProfileValue> noLibrary = {
        {"mpi", "EagerLimit", "4294967295", "no library: every message is one send() call"},
        {"mpi", "EnvelopeBytes", "0", "no library header"},
        {"mpi", "SendOverhead", "0s", "no library"},
        {"mpi", "RecvOverhead", "0s", "no library"},
        {"mpi", "ReceiveCopy", "false", "recv() reads into the user's buffer"},
        {"mpi", "UnexpectedCopy", "false", "recv() reads into the user's buffer"},
    };
    std::vector<ProfileValue> winsock = noLibrary;
    winsock.insert(
        winsock.end(),
        {{"transport", "SetSocketBuffer", "false",
          "PingPong's WinSock version keeps the default buffers (" + kSeed002 + " sec. 5.2 "
          "sets none)"},
         {"transport", "TcpNoDelay", "false",
          "WinSock default (Nagle on): " + kSeed002 + " sec. 5.2 mentions no TCP_NODELAY"},
         {"transport", "AfdBuffering", "true",
          "NT's AFD copies a send() that fits SO_SNDBUF (8 KB) and pushes it whole; a larger "
          "one goes from the user's buffer under Nagle, and its last short segment waits for "
          "the receiver's delayed ACK (Microsoft KB 214397). The GigaNet WinSock curve peaks "
          "at 8 KB and the loopback dips from 16 KB (" + kSeed002 + " sec. 6.3)"},
         {"transport", "SelectPolling", "false", "blocking send()/recv()"},
         {"transport", "EnvelopeRead", "false", "no library header to read"}});
    c.push_back({"mpi",
                 "winsock",
                 "WinSock 2 (wsock32) blocking send()/recv(), no library: TCP, also between "
                 "two processes on one host (loopback)",
                 winsock});
    c.push_back(
        {"mpi",
         "mpipro",
         "MPI/Pro 1.2.3 (MPI Software Technology): a progress thread over WinSock; its own "
         "shared-memory device on one host",
         {
             {"mpi", "EagerLimit", "32768",
              "short/long switch at 32 KB (estimate; " + kSeed002 + " does not state it)"},
             {"mpi", "EagerInclusive", "true", "short if length <= the limit (estimate)"},
             {"mpi", "LongFirstBytes", "0", "rendezvous: the data follows the receiver's reply"},
             {"mpi", "EnvelopeBytes", "32", "MPI/Pro packet header (estimate)"},
             {"mpi", "ReceiveCopy", "false", "the progress thread reads into the user's buffer"},
             {"mpi", "Progress", "EventThread",
              "MPI/Pro's progress thread blocks on WinSock and shared-memory events and wakes "
              "the user's thread (" + kSeed002 + " sec. 7.3: MPI/Pro adds 25 % (shared "
              "memory) and 50 % (TCP) to the 1-byte latency of WinSock)"},
             {"mpi", "ThreadSwitchCost", "35us",
              "an NT 4 event signal and thread switch (SetEvent, WaitForSingleObject, the "
              "dispatcher) on a PIII-450; calibrated once on MPI/Pro's TCP latencies, " +
                  kSeed002 + " Table 3 rows 8, 13, 17 (mean error about zero)"},
             {"mpi", "SendOverhead", "5us", "MPI/Pro's send call (estimate)"},
             {"mpi", "RecvOverhead", "5us", "MPI/Pro's receive call (estimate)"},
             {"transport", "SetSocketBuffer", "false",
              "MPI/Pro keeps WinSock's default buffers: its TCP peaks equal WinSock's (" +
                  kSeed002 + " sec. 6.3.2)"},
             {"transport", "TcpNoDelay", "true", "MPI libraries set TCP_NODELAY"},
             {"transport", "EnvelopeWrite", "false",
              "MPI/Pro is a Win32-native library: one WSASend() gathers its header and the "
              "data (one segment for a short message). With two send() calls the second "
              "frame's interrupts put the SK-9841's MPI/Pro latency ~60 us above the paper's "
              "178.8 us (" + kSeed002 + " Table 3 row 17)"},
             {"transport", "SelectPolling", "false",
              "the progress thread blocks in WinSock calls (no select loop)"},
             {"shm", "SlotBytes", "16384", "shared-memory buffers per pair (estimate)"},
             {"shm", "Slots", "4", "shared-memory buffers per pair (estimate)"},
             {"shm", "SendCost", "5us", "lock and header write in the shared section (estimate)"},
             {"shm", "RecvCost", "5us", "dequeue and header read (estimate)"},
             {"shm", "WakeCost", "21us",
              "the progress thread's wait on the shared section's Win32 event, besides the "
              "thread switches; calibrated once on MPI/Pro's shared-memory latency under NT 4, " + kSeed002 +
                  " Table 3 row 1"},
         }});
    // WMPI 1.2 and PaTENT WMPI 4.0: MPICH with the P4 device; shared memory between processes
    // on one host, TCP between hosts.
    const std::vector<ProfileValue> wmpiBase = {
        {"mpi", "EagerInclusive", "true", "MPICH: short if length <= the limit"},
        {"mpi", "LongFirstBytes", "0", "rendezvous: no data before the request is answered"},
        {"mpi", "EnvelopeBytes", "40", "ch_p4 packet header (as the MPICH profile)"},
        {"mpi", "ReceiveCopy", "false",
         "the receiver copies a message from the shared buffer (or the socket) straight into "
         "the user's buffer: with a second copy PaTENT's shared-memory peak would be half of "
         "MPI/Pro's, not equal to it (" + kSeed002 + " sec. 6.3.1)"},
        {"mpi", "Progress", "Polling", "MPICH polls inside MPI calls"},
        {"transport", "EnvelopeWrite", "true",
         "p4 writes a message's header and body with separate calls (as the MPICH profile)"},
        {"transport", "SelectPolling", "true",
         "p4 waits for messages with select() on its sockets"},
        {"transport", "TcpNoDelay", "true", "p4 sets TCP_NODELAY"},
        {"transport", "SetSocketBuffer", "false", "WinSock's default buffers"},
        {"shm", "SlotBytes", "16384", "p4 shared-memory message buffers (estimate)"},
        {"shm", "Slots", "4", "p4 shared-memory message buffers (estimate)"},
        {"shm", "SendCost", "3us", "lock and enqueue in the shared section (estimate)"},
        {"shm", "RecvCost", "3us", "dequeue (estimate)"},
    };
    std::vector<ProfileValue> wmpi = wmpiBase;
    wmpi.insert(wmpi.end(),
                {{"mpi", "EagerLimit", "16384", "WMPI 1.2 short-message limit (estimate)"},
                 {"mpi", "SendOverhead", "10us", "MPICH ADI and p4 send (estimate)"},
                 {"mpi", "RecvOverhead", "10us", "MPICH ADI and p4 receive (estimate)"},
                 {"shm", "WakeCost", "28us",
                  "WMPI 1.2's wait for a shared-memory message (calibrated once on " +
                      kSeed002 + " Table 3 row 3)"}});
    c.push_back({"mpi",
                 "wmpi",
                 "WMPI 1.2 (Univ. Coimbra): MPICH with the P4 device, shared memory on one host",
                 wmpi});
    std::vector<ProfileValue> patent = wmpiBase;
    patent.insert(patent.end(),
                  {{"mpi", "EagerLimit", "16384", "as WMPI (estimate)"},
                   {"mpi", "SendOverhead", "6us", "WMPI 4.0 send path (estimate)"},
                   {"mpi", "RecvOverhead", "6us", "WMPI 4.0 receive path (estimate)"},
                   {"shm", "WakeCost", "20us",
                    "PaTENT's wait for a shared-memory message (calibrated once on " + kSeed002 +
                        " Table 3 row 4)"}});
    c.push_back({"mpi",
                 "patent",
                 "PaTENT WMPI 4.0 (Genias): WMPI's commercial release, shared memory on one host "
                 "(seed 002 has no TCP figures: it could not select the NIC)",
                 patent});
    c.push_back(
        {"mpi",
         "pvm",
         "PVM 3.4 for Win32: pvm_pkbyte/pvm_send over a direct TCP route, the master leaves the "
         "echo in PVM's receive buffer",
         {
             {"mpi", "EagerLimit", "4294967295",
              "PVM sends every message at once (no rendezvous)"},
             {"mpi", "EnvelopeBytes", "32",
              "PVM message and fragment headers (assumption: one fragment per message)"},
             {"mpi", "SendCopy", "true",
              kSeed002 + " sec. 5.2.2: pvm_pkbyte copies the data into the send buffer"},
             {"mpi", "ReceiveCopy", "false",
              kSeed002 + " sec. 5.3: the master leaves the received data in a temporary buffer "
              "(no pvm_upkbyte)"},
             {"mpi", "UnexpectedCopy", "false", "data stays in PVM's buffer"},
             {"mpi", "SendOverhead", "10us",
              "pvm_initsend and pvm_send bookkeeping (assumption; no PVM figures in " +
                  kSeed002 + ")"},
             {"mpi", "RecvOverhead", "10us", "pvm_recv and pvm_bufinfo (assumption)"},
             {"echo", "SendCopy", "false",
              kSeed002 + " sec. 5.2.2: the slave sends back what it received without packing "
              "(assumption: it forwards the receive buffer)"},
             {"transport", "TcpNoDelay", "true", "PVM sets TCP_NODELAY on direct routes"},
             {"transport", "SetSocketBuffer", "false", "WinSock's default buffers"},
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
        // Number checkers assert on text that is not a number: check it here.
        std::string type = info.checker->GetValueTypeName();
        auto digits = [](const std::string& s, std::size_t from) {
            return s.size() > from && s.size() < from + 20 &&
                   s.find_first_not_of("0123456789", from) == std::string::npos;
        };
        bool signedText = !i.value.empty() && (i.value[0] == '-' || i.value[0] == '+');
        if ((type == "ns3::UintegerValue" && !digits(i.value, 0)) ||
            (type == "ns3::IntegerValue" && !digits(i.value, signedText ? 1 : 0)))
        {
            return "'" + i.text + "': value not allowed (a whole number; " +
                   info.checker->GetUnderlyingTypeInformation() + ")";
        }
        if (type == "ns3::DoubleValue")
        {
            char* end = nullptr;
            std::strtod(i.value.c_str(), &end);
            if (i.value.empty() || *end != '\0')
            {
                return "'" + i.text + "': value not allowed (a number)";
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
