// SPDX-License-Identifier: GPL-2.0-only
//
// Profile layer TestSuite: the catalogue of profile files, parts, a run's values
// (ProfileSet) and the limits read from attribute checkers. Expectations are the files' own
// values and the checkers' limits, written here.

#include "ns3/applications-module.h"
#include "ns3/clusternet-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/test.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <vector>

using namespace ns3;
using namespace ns3::clusternet;

/**
 * ProfileCatalogue::Used: what a run is composed of. After ForgetUsed, finding the host
 * pii450-netserver-nt4 (parts pii450-netserver and nt4; pii450-netserver derives from
 * piii450-440bx, hosts.toml and cpus.toml) and the NIC acenic (parts tigon2 and acenic-045)
 * records exactly those seven, sorted; a name that is not a profile records nothing.
 */
class ProfileUsedTestCase : public TestCase
{
  public:
    ProfileUsedTestCase()
        : TestCase("ProfileCatalogue::Used names the profiles found, their parts and bases")
    {
    }

  private:
    void DoRun() override
    {
        ProfileCatalogue::ForgetUsed();
        NS_TEST_ASSERT_MSG_EQ(ProfileCatalogue::Used().empty(), true, "nothing found yet");
        ProfileCatalogue::Find("host", "pii450-netserver-nt4");
        ProfileCatalogue::Find("nic", "acenic");
        ProfileCatalogue::Find("nic", "no-such-nic");
        ProfileCatalogue::Find("host", "acenic"); // a name of another kind: not found
        std::vector<std::string> expect = {"chip:tigon2",
                                           "cpu:pii450-netserver",
                                           "cpu:piii450-440bx",
                                           "driver:acenic-045",
                                           "host:pii450-netserver-nt4",
                                           "nic:acenic",
                                           "os:nt4"};
        std::vector<std::string> used = ProfileCatalogue::Used();
        std::string got;
        for (const auto& u : used)
        {
            got += u + " ";
        }
        NS_TEST_ASSERT_MSG_EQ((used == expect), true, "used: " << got);
        ProfileCatalogue::ForgetUsed();
        NS_TEST_ASSERT_MSG_EQ(ProfileCatalogue::Used().empty(), true, "forgotten");
    }
};

/**
 * A profile file: a derived profile holds its base's values with its own laid over them, an
 * abstract base is not selectable, the values reach an object's attributes, and a bad file is
 * refused with its file and line.
 */
class ProfileFileTestCase : public TestCase
{
  public:
    ProfileFileTestCase()
        : TestCase("profile files: bases, overrides, application, refusal")
    {
    }

  private:
    void DoRun() override
    {
        std::string dir = CreateTempDirFilename("clusternet-profiles");
        std::filesystem::create_directories(dir);
        std::string good = dir + "/good.toml";
        std::ofstream(good) << "[test-base]\n"
                               "kind = \"nic\"\n"
                               "abstract = true\n"
                               "description = \"a base\"\n"
                               "[test-base.device]\n"
                               "Mtu = [\"4000\", \"test\"]\n"
                               "TxRingSize = [\"64\", \"test\"]\n"
                               "[test-derived]\n"
                               "kind = \"nic\"\n"
                               "base = \"test-base\"\n"
                               "description = \"derived\"\n"
                               "[test-derived.device]\n"
                               "TxRingSize = [\"128\", \"test override\"]\n"
                               "[test-derived.properties]\n"
                               "PriceUsd = [12.5, \"test\"]\n";
        NS_TEST_ASSERT_MSG_EQ(ProfileCatalogue::Load({good}), "", "a good file loads");
        NS_TEST_ASSERT_MSG_EQ((ProfileCatalogue::Find("nic", "test-base") == nullptr),
                              true,
                              "an abstract profile is not selectable");
        const Profile* p = ProfileCatalogue::Find("nic", "test-derived");
        NS_TEST_ASSERT_MSG_NE(p, nullptr, "derived profile");
        NS_TEST_ASSERT_MSG_EQ(p->values.size(), 3, "two device values and one property");
        NS_TEST_ASSERT_MSG_EQ(p->Get("device", "Mtu"), "4000", "inherited");
        NS_TEST_ASSERT_MSG_EQ(p->Get("device", "TxRingSize"), "128", "overridden");
        NS_TEST_ASSERT_MSG_EQ(p->Get("properties", "PriceUsd"), "12.5", "a bare number");
        Ptr<GigeNetDevice> dev = CreateObject<GigeNetDevice>();
        NS_TEST_ASSERT_MSG_EQ(ProfileCatalogue::Apply(*p, "device", dev), 2, "two applied");
        NS_TEST_ASSERT_MSG_EQ(dev->GetMtu(), 4000, "Mtu reached the device");
        UintegerValue ring;
        dev->GetAttribute("TxRingSize", ring);
        NS_TEST_ASSERT_MSG_EQ(ring.Get(), 128, "the override reached the device");

        std::string bad = dir + "/bad.toml";
        std::ofstream(bad) << "[test-bad]\nkind = \"nic\"\ndescription = \"x\"\n"
                              "[test-bad.device]\nMtu = [\"100000\", \"test\"]\n";
        std::string err = ProfileCatalogue::Load({bad});
        NS_TEST_ASSERT_MSG_EQ(err.rfind(bad + ":5: test-bad.device.Mtu = '100000': value not "
                                              "allowed",
                                        0),
                              0,
                              err);
        NS_TEST_ASSERT_MSG_EQ((ProfileCatalogue::Find("nic", "test-bad") == nullptr),
                              true,
                              "nothing of a refused file is added");
        std::filesystem::remove_all(dir);
    }
};

/**
 * A NIC composed of parts (a chip and a driver) holds both parts' values, each once, and a
 * derived NIC (base) holds them too. Refused, each with file:line: two parts that set the same
 * attribute (a value belongs to one part), a part of a kind the composition cannot have, parts
 * together with a base, and parts on a kind that is not composed (an MPI library).
 */
class ProfilePartsTestCase : public TestCase
{
  public:
    ProfilePartsTestCase()
        : TestCase("profile parts: a NIC is its chip and its driver, each value once")
    {
    }

  private:
    void DoRun() override
    {
        std::string dir = CreateTempDirFilename("clusternet-profile-parts");
        std::filesystem::create_directories(dir);
        std::string good = dir + "/parts.toml";
        std::ofstream(good) << "[pt-chip]\nkind = \"chip\"\ndescription = \"c\"\n"
                               "[pt-chip.device]\nRxFifoSize = [\"32768\", \"datasheet\"]\n"
                               "[pt-drv]\nkind = \"driver\"\ndescription = \"d\"\n"
                               "[pt-drv.device]\nTxRingSize = [\"128\", \"source\"]\n"
                               "[pt-drv.coalescer]\nEnabled = [\"false\", \"source\"]\n"
                               "[pt-nic]\nkind = \"nic\"\nparts = [\"pt-chip\", \"pt-drv\"]\n"
                               "description = \"n\"\n"
                               "[pt-mine]\nkind = \"nic\"\nbase = \"pt-nic\"\ndescription = \"m\"\n"
                               "[pt-mine.device]\nTxRingSize = [\"64\", \"mine\"]\n";
        NS_TEST_ASSERT_MSG_EQ(ProfileCatalogue::Load({good}), "", "a good file loads");
        const Profile* nic = ProfileCatalogue::Find("nic", "pt-nic");
        NS_TEST_ASSERT_MSG_NE(nic, nullptr, "the composed NIC");
        NS_TEST_ASSERT_MSG_EQ(nic->values.size(), 3, "the chip's one value and the driver's two");
        NS_TEST_ASSERT_MSG_EQ(nic->Get("device", "RxFifoSize"), "32768", "from the chip");
        NS_TEST_ASSERT_MSG_EQ(nic->Get("device", "TxRingSize"), "128", "from the driver");
        NS_TEST_ASSERT_MSG_EQ(nic->Get("coalescer", "Enabled"), "false", "from the driver");
        const Profile* mine = ProfileCatalogue::Find("nic", "pt-mine");
        NS_TEST_ASSERT_MSG_EQ(mine->Get("device", "RxFifoSize"), "32768", "inherited part value");
        NS_TEST_ASSERT_MSG_EQ(mine->Get("device", "TxRingSize"), "64", "overridden");
        Ptr<GigeNetDevice> dev = CreateObject<GigeNetDevice>();
        NS_TEST_ASSERT_MSG_EQ(ProfileCatalogue::Apply(*nic, "device", dev),
                              2,
                              "both parts applied");

        struct Bad
        {
            std::string text;
            std::string says;
        };
        const std::string parts = "[pb-a]\nkind = \"chip\"\ndescription = \"a\"\n"
                                  "[pb-a.device]\nRxFifoSize = [\"32768\", \"s\"]\n"
                                  "[pb-b]\nkind = \"driver\"\ndescription = \"b\"\n"
                                  "[pb-b.device]\nRxFifoSize = [\"16384\", \"s\"]\n";
        for (const Bad& b :
             {Bad{parts + "[pb-nic]\nkind = \"nic\"\nparts = [\"pb-a\", \"pb-b\"]\n"
                          "description = \"x\"\n",
                  ":13: pb-nic: parts 'pb-a' and 'pb-b' both set device.RxFifoSize"},
              Bad{parts + "[pb-nic]\nkind = \"nic\"\nparts = [\"pb-a\", \"pb-lam\"]\n"
                          "description = \"x\"\n[pb-lam]\nkind = \"mpi\"\ndescription = \"l\"\n",
                  ":13: pb-nic: part 'pb-lam' is not a profile of a part kind of a nic "
                  "(chip, driver)"},
              Bad{parts + "[pb-nic]\nkind = \"nic\"\nbase = \"pb-x\"\nparts = [\"pb-a\"]\n"
                          "description = \"x\"\n[pb-x]\nkind = \"nic\"\ndescription = \"x\"\n",
                  ":14: pb-nic: has both base and parts"},
              Bad{"[pb-lib]\nkind = \"mpi\"\nparts = [\"pb-q\"]\ndescription = \"x\"\n",
                  ":3: pb-lib: a mpi profile has no parts"}})
        {
            std::string bad = dir + "/bad.toml";
            std::ofstream(bad) << b.text;
            std::string err = ProfileCatalogue::Load({bad});
            NS_TEST_ASSERT_MSG_EQ(err.rfind(bad + b.says, 0), 0, err);
            NS_TEST_ASSERT_MSG_EQ((ProfileCatalogue::Find("nic", "pb-nic") == nullptr),
                                  true,
                                  "nothing of a refused file is added");
        }
        std::filesystem::remove_all(dir);
    }
};

/**
 * A run's values (ProfileSet): an attribute is the attribute's initial value until a profile
 * sets it, a later layer wins (profile, then the run's choice, then --set), a profile value
 * for the same target name of another object is not taken, bad overrides are refused whole,
 * and the values reach an object only when applied.
 */
class ProfileSetTestCase : public TestCase
{
  public:
    ProfileSetTestCase()
        : TestCase("profile sets: layers, kinds, refused overrides, application")
    {
    }

  private:
    void DoRun() override
    {
        std::string dir = CreateTempDirFilename("clusternet-profile-set");
        std::filesystem::create_directories(dir);
        std::string file = dir + "/set.toml";
        std::ofstream(file) << "[ps-nic]\nkind = \"nic\"\ndescription = \"x\"\n"
                               "[ps-nic.device]\nMtu = [\"4000\", \"test\"]\n"
                               "[ps-host]\nkind = \"host\"\ndescription = \"y\"\n"
                               "[ps-host.bus]\nWidth = [\"64\", \"test\"]\n"
                               "[ps-host.device]\nSendBuffers = [\"5\", \"test: IP over GM\"]\n";
        NS_TEST_ASSERT_MSG_EQ(ProfileCatalogue::Load({file}), "", "the file loads");

        ProfileSet values({"nic.device", "host.bus"});
        NS_TEST_ASSERT_MSG_EQ(values.Get("device", "Mtu"), "1500", "GigeNetDevice's default");
        NS_TEST_ASSERT_MSG_EQ(values.Get("bus", "Width"), "32", "PciBus's default");
        values.AddProfile(*ProfileCatalogue::Find("nic", "ps-nic"));
        values.AddProfile(*ProfileCatalogue::Find("host", "ps-host"));
        NS_TEST_ASSERT_MSG_EQ(values.Get("device", "Mtu"), "4000", "the NIC profile's");
        NS_TEST_ASSERT_MSG_EQ(values.Get("bus", "Width"), "64", "the host profile's");
        NS_TEST_ASSERT_MSG_EQ(values.GetProfileValues("device").size(),
                              1,
                              "the host's device (GmEthernetNetDevice) is another object");
        values.Set("bus", "Clock", "66");
        NS_TEST_ASSERT_MSG_EQ(values.Get("bus", "Clock"), "66", "the run's choice");

        NS_TEST_ASSERT_MSG_EQ(values.SetOverrides("device.Mtu=9000;bus.Width=32"), "", "good");
        NS_TEST_ASSERT_MSG_EQ(values.GetValue<UintegerValue>("device", "Mtu").Get(),
                              9000,
                              "--set wins");
        NS_TEST_ASSERT_MSG_EQ(values.Get("bus", "Width"), "32", "--set wins over the profile");

        std::string err = values.SetOverrides("device.Mtu=1500;stack.Timestamps=false");
        NS_TEST_ASSERT_MSG_EQ(err,
                              "'stack.Timestamps=false': unknown target 'stack'; allowed: device, "
                              "bus",
                              "a target the run does not have");
        NS_TEST_ASSERT_MSG_EQ(values.Get("device", "Mtu"), "9000", "nothing added when refused");
        err = values.SetOverrides("device.Mtu=100000");
        NS_TEST_ASSERT_MSG_EQ(err.rfind("'device.Mtu=100000': value not allowed", 0), 0, err);
        err = values.SetOverrides("device.Frob=1");
        bool named = err.find("has no attribute Frob") != std::string::npos;
        NS_TEST_ASSERT_MSG_EQ(named, true, err);
        err = values.SetOverrides("device.Mtu");
        NS_TEST_ASSERT_MSG_EQ(err, "'device.Mtu' is not target.Attribute=value", err);

        // Issue 26: empty items and values, unused targets, values ns-3 cannot hold.
        NS_TEST_ASSERT_MSG_EQ(values.SetOverrides(""), "", "no overrides");
        for (const char* bad : {";;", "device.Mtu=9000;", ";device.Mtu=9000"})
        {
            err = values.SetOverrides(bad);
            NS_TEST_ASSERT_MSG_NE(err.find("has an empty item"), std::string::npos, err);
        }
        err = values.SetOverrides("device.Mtu=");
        NS_TEST_ASSERT_MSG_EQ(err, "'device.Mtu=': no value (give target.Attribute=value)", err);
        err = values.SetOverrides(".Mtu=9000");
        NS_TEST_ASSERT_MSG_EQ(err, "'.Mtu=9000' is not target.Attribute=value", err);
        err = values.SetOverrides("bus.Width=64", {"device"});
        NS_TEST_ASSERT_MSG_EQ(err,
                              "'bus.Width=64': this program does not use target 'bus'; "
                              "allowed: device",
                              "a target the run builds but does not exercise");
        NS_TEST_ASSERT_MSG_EQ(values.SetOverrides("device.Mtu=9000", {"device"}), "", "used");
        err = values.SetOverrides("device.DataRate=0bps");
        NS_TEST_ASSERT_MSG_EQ(err,
                              "'device.DataRate=0bps': value not allowed (a rate above 0 bit/s, "
                              "e.g. 1Gbps)",
                              err);
        NS_TEST_ASSERT_MSG_EQ(values.Get("device", "Mtu"), "9000", "nothing added when refused");

        // Every attribute value (--set and profile files) goes through CheckAttribute.
        struct Case
        {
            std::string typeId;
            std::string attribute;
            std::string value;
            bool ok;
        };
        const std::string cpu = "ns3::clusternet::HostCpu";
        const std::string gige = "ns3::clusternet::GigeNetDevice";
        const std::string myrinet = "ns3::clusternet::Myrinet";
        for (const Case& c : {Case{cpu, "CoreFactor", "1.5", true},
                              Case{cpu, "CoreFactor", "nan", false},
                              Case{cpu, "CoreFactor", "inf", false},
                              Case{cpu, "CoreFactor", "1e999", false},
                              Case{cpu, "CoreFactor", "1.5 ", false},
                              Case{cpu, "CoreFactor", "", false},
                              Case{cpu, "ComputeSlice", "5us", true},
                              Case{cpu, "ComputeSlice", "1e30s", false},
                              Case{cpu, "ComputeSlice", "5xs", false},
                              Case{cpu, "ComputeSlice", "nan", false},
                              Case{cpu, "ComputeSlice", "5 us", false},
                              Case{cpu, "CopyBandwidth", "0bps", false},
                              Case{cpu, "CopyBandwidth", "", false},
                              Case{cpu, "ChecksumBandwidth", "0bps", true}, // 0: folded in
                              Case{gige, "DataRate", "1Gbps", true},
                              Case{gige, "DataRate", "1bps", true},
                              Case{gige, "DataRate", "0.5bps", false},
                              Case{gige, "DataRate", "99999999999999999999bps", false},
                              Case{gige, "DataRate", "1e9bps", false},
                              Case{gige, "DataRate", "1Gbps ", false},
                              Case{gige, "Mtu", "99999999999999999999", false},
                              Case{myrinet + "Channel", "DataRate", "0Gbps", false},
                              Case{myrinet + "NetDevice", "ReceiveRate", "0bps", true}})
        {
            err = ProfileCatalogue::CheckAttribute(TypeId::LookupByName(c.typeId),
                                                   c.attribute,
                                                   c.value);
            NS_TEST_ASSERT_MSG_EQ(err.empty(), c.ok, c.attribute << "=" << c.value << ": " << err);
        }
        // Time holds int64 nanoseconds: 9223372036.854775807 s either way.
        NS_TEST_ASSERT_MSG_EQ(ValueText::CheckTime("9223372036s"), "", "the largest whole second");
        NS_TEST_ASSERT_MSG_EQ(ValueText::CheckTime("-9223372036s"), "", "and the smallest");
        NS_TEST_ASSERT_MSG_EQ(ValueText::CheckTime("106751d"), "", "in days");
        for (const char* t : {"9223372037s", "-9223372037s", "106752d", "1e30", "inf", "ms", ""})
        {
            NS_TEST_ASSERT_MSG_NE(ValueText::CheckTime(t), "", t);
        }
        NS_TEST_ASSERT_MSG_EQ(ValueText::CheckTime("9223372037s"),
                              "a time within -9223372036s..9223372036s: ns-3 counts time in "
                              "64-bit steps of its resolution",
                              "the limit in the message");

        Ptr<GigeNetDevice> dev = CreateObject<GigeNetDevice>();
        values.ApplyProfiles("device", dev);
        NS_TEST_ASSERT_MSG_EQ(dev->GetMtu(), 4000, "profiles only");
        values.ApplyOverrides("device", dev);
        NS_TEST_ASSERT_MSG_EQ(dev->GetMtu(), 9000, "then --set");
        Ptr<PciBus> bus = CreateObject<PciBus>();
        values.Apply("bus", bus);
        NS_TEST_ASSERT_MSG_EQ(bus->GetBytesPerCycle(), 4, "32 bits: --set");
        NS_TEST_ASSERT_MSG_EQ(bus->GetCyclePeriod(), NanoSeconds(15), "66 MHz: the choice");
        std::filesystem::remove_all(dir);
    }
};

/**
 * A limit is written once, in an attribute's checker, and read from there by command lines and
 * the Python API.
 */
class UintegerRangeTestCase : public TestCase
{
  public:
    UintegerRangeTestCase()
        : TestCase("UintegerRange reads an attribute checker's limits")
    {
    }

  private:
    void DoRun() override
    {
        // Standard Ethernet payload to jumbo frames.
        UintegerRange mtu = UintegerRange::Of("ns3::clusternet::GigeNetDevice", "Mtu");
        NS_TEST_ASSERT_MSG_EQ(mtu.min, 1500, "smallest MTU");
        NS_TEST_ASSERT_MSG_EQ(mtu.max, 9000, "largest MTU");
        NS_TEST_ASSERT_MSG_EQ(mtu.ToString(), "1500..9000", "as text");
        NS_TEST_ASSERT_MSG_EQ(mtu.Contains(1500) && mtu.Contains(9000), true, "ends included");
        NS_TEST_ASSERT_MSG_EQ(mtu.Contains(1499) || mtu.Contains(9001), false, "outside");
        // 4 KB to 64 MB socket buffers.
        UintegerRange sockbuf =
            UintegerRange::Of("ns3::clusternet::NetpipeApplication", "SocketBuffer");
        NS_TEST_ASSERT_MSG_EQ(sockbuf.min, 4096, "smallest socket buffer");
        NS_TEST_ASSERT_MSG_EQ(sockbuf.max, 64ULL << 20, "largest socket buffer");
        // The checker is the attribute's: a value inside is accepted, one outside refused.
        Ptr<GigeNetDevice> dev = CreateObject<GigeNetDevice>();
        NS_TEST_ASSERT_MSG_EQ(dev->SetAttributeFailSafe("Mtu", UintegerValue(mtu.max)), true, "max");
        NS_TEST_ASSERT_MSG_EQ(dev->SetAttributeFailSafe("Mtu", UintegerValue(mtu.max + 1)),
                              false,
                              "max + 1");
    }
};

/**
 * Two PIII-450 hosts joined back to back by Gigabit Ethernet NICs of profile @p nic.
 * @param nic the NIC profile
 * @param nodes filled with the two hosts
 * @return the two NICs
 */
NetDeviceContainer
TwoGigeHosts(const std::string& nic, NodeContainer& nodes)
{
    nodes.Create(2);
    HostHelper hosts;
    hosts.SetHostProfile("piii450-linux22");
    hosts.Install(nodes);
    GigeHelper gige;
    gige.SetNicProfile(nic);
    return gige.Install(nodes.Get(0), nodes.Get(1));
}

/**
 * A run's overrides applied through the target table: each target's row says where its
 * objects are below a node (a Config path), so one call reaches every device, coalescer and CPU
 * of two hosts, and only objects of the target's TypeId.
 */
class ProfileSetNodesTestCase : public TestCase
{
  public:
    ProfileSetNodesTestCase()
        : TestCase("profile sets: overrides applied to the nodes through the target table")
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer nodes;
        NetDeviceContainer devs = TwoGigeHosts("pro1000mt", nodes);
        ProfileSet values({"nic.device", "nic.driver", "nic.coalescer", "host.cpu", "host.npb"});
        NS_TEST_ASSERT_MSG_EQ(
            values.SetOverrides("device.Mtu=9000;driver.RxCycles=4321;coalescer.Timeout=7us;"
                                "cpu.Clock=123;npb.BtRate=1"),
            "",
            "good overrides");
        std::map<std::string, uint32_t> applied;
        for (const auto& [target, n] : values.ApplyOverrides(nodes))
        {
            applied[target] = n;
        }
        NS_TEST_ASSERT_MSG_EQ(applied["device"], 2, "both NICs");
        NS_TEST_ASSERT_MSG_EQ(applied["driver"], 2, "both drivers");
        NS_TEST_ASSERT_MSG_EQ(applied["coalescer"], 2, "both receive coalescers");
        NS_TEST_ASSERT_MSG_EQ(applied["cpu"], 2, "both CPUs");
        NS_TEST_ASSERT_MSG_EQ(applied["npb"], 0, "no node holds a NAS skeleton");
        for (uint32_t i = 0; i < 2; ++i)
        {
            UintegerValue mtu;
            devs.Get(i)->GetAttribute("Mtu", mtu);
            NS_TEST_ASSERT_MSG_EQ(mtu.Get(), 9000, "device " << i);
            PointerValue coalescer;
            devs.Get(i)->GetAttribute("RxCoalescer", coalescer);
            TimeValue timeout;
            coalescer.Get<Object>()->GetAttribute("Timeout", timeout);
            NS_TEST_ASSERT_MSG_EQ(timeout.Get(), MicroSeconds(7), "coalescer " << i);
            PointerValue driver;
            devs.Get(i)->GetAttribute("Driver", driver);
            DoubleValue cycles;
            driver.Get<Object>()->GetAttribute("RxCycles", cycles);
            NS_TEST_ASSERT_MSG_EQ(cycles.Get(), 4321, "driver " << i);
            DoubleValue clock;
            nodes.Get(i)->GetObject<HostCpu>()->GetAttribute("Clock", clock);
            NS_TEST_ASSERT_MSG_EQ(clock.Get(), 123, "cpu " << i);
        }
        Simulator::Destroy();
    }
};

/**
 * A profile's values reach their objects through the table, for a target no helper sets: a
 * NIC profile's cable (nic.link, GigeChannel, which GigeHelper builds with its own defaults)
 * takes the profile's delay once the run's values are applied to the nodes, after the device's.
 */
class ProfileSetPathTestCase : public TestCase
{
  public:
    ProfileSetPathTestCase()
        : TestCase("profile sets: a profile's values reach a target no helper sets")
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer nodes;
        NetDeviceContainer devs = TwoGigeHosts("sknet", nodes);
        Profile cable;
        cable.kind = "nic";
        cable.name = "long-cable";
        for (const auto& [target, attribute, value] :
             std::vector<std::array<std::string, 3>>{{"link", "Delay", "500ns"},
                                                     {"device", "NicRxCost", "3us"}})
        {
            ProfileValue v;
            v.target = target;
            v.attribute = attribute;
            v.value = value;
            cable.values.push_back(v);
        }
        ProfileSet values({"nic.device", "nic.link"});
        values.AddProfile(cable);
        std::map<std::string, uint32_t> applied;
        for (const auto& [target, n] : values.Apply(nodes))
        {
            applied[target] = n;
        }
        NS_TEST_ASSERT_MSG_EQ(applied["link"], 2, "the cable, from both ends");
        NS_TEST_ASSERT_MSG_EQ(applied["device"], 2, "both NICs");
        TimeValue delay;
        devs.Get(0)->GetChannel()->GetAttribute("Delay", delay);
        NS_TEST_ASSERT_MSG_EQ(delay.Get(), NanoSeconds(500), "the profile's cable delay");
        TimeValue cost;
        devs.Get(1)->GetAttribute("NicRxCost", cost);
        NS_TEST_ASSERT_MSG_EQ(cost.Get(), MicroSeconds(3), "the profile's device value");
        Simulator::Destroy();
    }
};

/**
 * A run's targets derived from the table by kind: every row of the kinds given, a name two
 * kinds share for one class taken once (from the first kind), the rows excepted left out. The
 * expected lists are written out from the profiles README's table, not computed by the code.
 */
class TargetsOfTestCase : public TestCase
{
  public:
    TargetsOfTestCase()
        : TestCase("profile targets: a run's targets derived from the table by kind")
    {
    }

  private:
    static std::string Join(const std::vector<std::string>& v)
    {
        std::string out;
        for (const auto& s : v)
        {
            out += (out.empty() ? "" : " ") + s;
        }
        return out;
    }

    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(Join(ProfileCatalogue::TargetsOf({"lanai"})),
                              "lanai.lanai lanai.mcp lanai.link lanai.port lanai.switch",
                              "every row of one kind, in the table's order");
        NS_TEST_ASSERT_MSG_EQ(Join(ProfileCatalogue::TargetsOf({"lanai"}, {"lanai.mcp"})),
                              "lanai.lanai lanai.link lanai.port lanai.switch",
                              "a row excepted");
        // host and cpu both give bus, cpu and npb, for the same classes: taken from host.
        std::vector<std::string> hostCpu = ProfileCatalogue::TargetsOf({"host", "cpu"});
        NS_TEST_ASSERT_MSG_EQ(std::count(hostCpu.begin(), hostCpu.end(), "cpu.cpu"),
                              0,
                              "a shared name is taken once");
        NS_TEST_ASSERT_MSG_EQ(std::count(hostCpu.begin(), hostCpu.end(), "host.cpu"),
                              1,
                              "from the first kind");
        // A Gigabit Ethernet run: the NIC's device and driver, not IP over GM's.
        NS_TEST_ASSERT_MSG_EQ(
            Join(ProfileCatalogue::TargetsOf({"nic", "host"},
                                             {"nic.loopback",
                                              "nic.txcoalescer",
                                              "host.gm",
                                              "host.device",
                                              "host.driver",
                                              "host.npb"})),
            "nic.device nic.driver nic.coalescer nic.link host.bus host.cpu host.stack",
            "kind by kind");
    }
};

/**
 * The profile TestSuite.
 */
class ProfileTestSuite : public TestSuite
{
  public:
    ProfileTestSuite()
        : TestSuite("clusternet-profile", Type::UNIT)
    {
        AddTestCase(new ProfileUsedTestCase, TestCase::Duration::QUICK);
        AddTestCase(new ProfileFileTestCase, TestCase::Duration::QUICK);
        AddTestCase(new ProfilePartsTestCase, TestCase::Duration::QUICK);
        AddTestCase(new ProfileSetTestCase, TestCase::Duration::QUICK);
        AddTestCase(new ProfileSetNodesTestCase, TestCase::Duration::QUICK);
        AddTestCase(new ProfileSetPathTestCase, TestCase::Duration::QUICK);
        AddTestCase(new TargetsOfTestCase, TestCase::Duration::QUICK);
        AddTestCase(new UintegerRangeTestCase, TestCase::Duration::QUICK);
    }
};

static ProfileTestSuite g_profileTestSuite; //!< Static variable for test initialization
