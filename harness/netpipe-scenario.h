// SPDX-License-Identifier: GPL-2.0-only
#ifndef CLUSTERNET_NETPIPE_SCENARIO_H
#define CLUSTERNET_NETPIPE_SCENARIO_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{
namespace clusternet
{

/**
 * @ingroup clusternet
 * @brief What a NetPIPE TCP sweep measures by default: its axes, as the paper ran them.
 */
struct NetpipeScenarioSpec
{
    std::string name;        //!< scenario name, results/<name>/
    std::string description; //!< one paragraph for --help
    std::string nics;        //!< default --nic list
    std::string mtus;        //!< default --mtu list [bytes]
    std::string sockbufs;    //!< default --sockbuf list [bytes]
    std::string cases;       //!< default --cases ("nic@mtu,..."), replacing nic x mtu if set
    std::string host{"piii450-linux22"}; //!< default --host
    std::string stacks;      //!< default --stack (MPI profiles): NetPIPE's MPI mode if set
    uint32_t maxBlock{1u << 21}; //!< default --max-block [bytes]
    uint32_t switches{0};        //!< default --switches: the paper's (0 back to back)
};

struct NetpipeConfig;

/// @return the data.csv columns of a NetPIPE point: TCP, or MPI mode (@p mpi) with the
/// library's stack, eager limit and socket buffer
std::vector<std::string> NetpipeColumns(bool mpi = false);

/**
 * @ingroup clusternet
 * @brief Simulate one NetPIPE TCP configuration.
 * @return its data.csv rows (NetpipeColumns()), one per block size, as the scenarios write them
 */
std::vector<std::vector<std::string>> NetpipeRows(const NetpipeConfig& config);

/**
 * @ingroup clusternet
 * @brief The MTU a NIC's own profiles set: a Gigabit Ethernet NIC profile's device.Mtu, or for
 * IP over GM (@p nic a LANai board) the GM Ethernet driver's device.Mtu of @p host's profile.
 * @return the profile that says it and its value ("" when the profiles leave it to the run)
 */
std::pair<std::string, std::string> ProfileMtu(const std::string& nic, const std::string& host);

/**
 * @ingroup clusternet
 * @brief Parse the command line, run the sweep in parallel processes, write
 * results/<name>/data.csv and run the report (summary.csv, plot, table).
 * @return process exit status
 */
int RunNetpipeScenario(const NetpipeScenarioSpec& spec, int argc, char** argv);

} // namespace clusternet
} // namespace ns3

#endif // CLUSTERNET_NETPIPE_SCENARIO_H
