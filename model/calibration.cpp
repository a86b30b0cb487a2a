// SPDX-License-Identifier: MIT
#include "calibration.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

namespace ts {

namespace {

std::vector<std::string> split(const std::string &line)
{
    std::vector<std::string> out;
    std::istringstream in(line);
    std::string token;
    while (in >> token)
        out.push_back(token);
    return out;
}

bool toDouble(const std::string &s, double *out)
{
    if (s.empty())
        return false;
    char *end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size() || !std::isfinite(v))
        return false;
    *out = v;
    return true;
}

bool isInteger(const std::string &s)
{
    double v;
    return toDouble(s, &v) && v == std::floor(v);
}

} // namespace

bool collectiveFromName(const std::string &name, Collective *c)
{
    static const std::pair<const char *, Collective> names[] = {
        {"all_reduce", Collective::AllReduce},         {"allreduce", Collective::AllReduce},
        {"all_gather", Collective::AllGather},         {"allgather", Collective::AllGather},
        {"reduce_scatter", Collective::ReduceScatter}, {"reducescatter", Collective::ReduceScatter},
        {"alltoall", Collective::AllToAll},            {"all_to_all", Collective::AllToAll},
        {"broadcast", Collective::Broadcast},          {"sendrecv", Collective::SendRecv},
        {"reduce", Collective::Reduce},
    };
    std::string lower = name;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
    for (const auto &[key, value] : names)   // "reduce" last: it is a substring of the others
        if (lower.find(key) != std::string::npos) {
            *c = value;
            return true;
        }
    return false;
}

namespace {

// What the paste's launcher put before a line: `srun --label` ("12: "), OpenMPI's --tag-output
// ("[1,0]<stdout>:"), MPICH's and Intel MPI's -prepend-rank ("[0] "), pdsh and clush ("node-a: ").
std::string stripLauncherPrefix(const std::string &line)
{
    size_t i = 0;
    while (i < line.size() && line[i] == ' ')
        ++i;
    size_t j = i;
    if (j < line.size() && line[j] == '[') {
        const size_t close = line.find("]<", j);
        const size_t colon = close == std::string::npos ? close : line.find(">:", close);
        if (colon != std::string::npos && colon < 40)
            return line.substr(colon + 2);
        size_t k = j + 1;
        while (k < line.size() && std::isdigit(static_cast<unsigned char>(line[k])))
            ++k;
        if (k > j + 1 && k < line.size() && line[k] == ']') {
            // Intel MPI tags every chunk a rank writes, so the tag can recur inside a row
            // ("... sum  -1[0]  1626.5 ..."): each recurrence becomes a space.
            const std::string tag = line.substr(j, k + 1 - j);
            std::string rest = line.substr(k + 1);
            for (size_t at = rest.find(tag); at != std::string::npos; at = rest.find(tag, at + 1))
                rest.replace(at, tag.size(), " ");
            return rest;
        }
    }
    // A rank or host name, then ": ". Not "node-a:123:123 [0] NCCL INFO" (no space after its colon).
    while (j < line.size() && (std::isalnum(static_cast<unsigned char>(line[j])) || line[j] == '-' || line[j] == '.' || line[j] == '_'))
        ++j;
    if (j > i && j - i < 64 && std::isalnum(static_cast<unsigned char>(line[i])) && j < line.size() && line[j] == ':'
        && (j + 1 == line.size() || line[j + 1] == ' '))
        return line.substr(j + 1);
    return line;
}

// A line as it may be quoted in a message: printable ASCII only, at most 100 characters.
std::string printable(const std::string &line)
{
    std::string out;
    for (char ch : line.substr(0, 100))
        out += (ch >= 32 && ch < 127) ? ch : '?';
    return out;
}

constexpr double kMaxSizeBytes = 1ull << 44;      // 16 TiB: no GPU buffer is larger
constexpr double kMaxSeconds = 1000.0;            // one collective for more than 1000 s is not a benchmark
constexpr double kRepeatTolerance = 0.25;         // a size repeated with times further apart is inconsistent
constexpr int kMinSizes = 3;
constexpr int kMaxRanks = 10000000;                // as cluster.gpus: no nccl-tests run is larger

} // namespace

bool parseNcclLogs(const std::string &text, const std::string &source, std::vector<NcclLog> *logs, ParseError *error,
                   const std::string &hint, const LogTopology &topology)
{
    std::vector<NcclLog> out;
    std::map<std::string, int> ranksOnHost;
    int maxRank = -1, nGpus = 0, nThread = 1;
    bool pendingKnown = false;
    Collective pending = Collective::AllReduce;
    Algorithm algorithmSeen = Algorithm::Auto;
    std::istringstream in(text);
    std::string raw;
    int number = 0;
    static const std::set<std::string> kRedops = {"sum", "prod", "min", "max", "avg", "none", "mulsum", "-"};
    static const std::set<std::string> kTypes = {"int8", "uint8", "int32", "uint32", "int64", "uint64", "half", "float",
                                                 "double", "bfloat16", "fp8_e4m3", "fp8_e5m2", "int", "char", "bf16",
                                                 "fp16", "fp32", "f8e4m3", "f8e5m2"};
    auto fail = [&](int line, const std::string &why) {
        error->line = line;
        error->message = source + (line > 0 ? ", line " + std::to_string(line) : std::string()) + ": " + why;
        return false;
    };
    auto startTable = [&](int line) {
        NcclLog log;
        log.source = source;
        log.firstLine = line;
        if (pendingKnown) {
            log.collective = pending;
            log.collectiveKnown = true;
        } else if (!out.empty() && out.back().collectiveKnown) {
            log.collective = out.back().collective;   // the sizes restarted: the same test run again
            log.collectiveKnown = true;
        }
        out.push_back(log);
        pendingKnown = false;
    };
    while (std::getline(in, raw)) {
        ++number;
        if (!raw.empty() && raw.back() == '\r')
            raw.pop_back();
        const std::string line = stripLauncherPrefix(raw);
        const std::vector<std::string> t = split(line);
        if (t.empty())
            continue;
        if (const auto at = line.find("Collective test starting:"); at != std::string::npos) {
            pendingKnown = collectiveFromName(line.substr(at + 25), &pending);
            continue;
        }
        if (const auto at = line.find("NCCL_ALGO set by environment to "); at != std::string::npos) {
            // NCCL spells them Ring, Tree, NVLS (NVLSTree reads as NVLS), PAT.
            std::string value = line.substr(at + 32);
            std::transform(value.begin(), value.end(), value.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
            for (Algorithm a : {Algorithm::Ring, Algorithm::Tree, Algorithm::Nvls, Algorithm::Pat})
                if (value.rfind(nameOf(a), 0) == 0)
                    algorithmSeen = a;
        }
        // A paste outside a code block loses the header's '#' (Markdown takes it for a heading):
        // "nThread 1 nGpus 1 ..." and "Rank  0 Pid ... on host device 0" are header lines too.
        const bool bareHeader = t[0] == "nThread" || (t[0] == "Rank" && t.size() >= 4);
        if (t[0][0] == '#' || bareHeader || line.find("NCCL INFO") != std::string::npos || line.find("NCCL WARN") != std::string::npos
            || line.find("RCCL") != std::string::npos) {
            // Header lines: how many ranks, on which hosts.
            // Counts are read as doubles and bounded before they become ints: a garbled header
            // must give a message, not an overflow.
            const auto count = [](const std::string &s) {
                const double v = std::atof(s.c_str());
                return std::isfinite(v) && v >= 0 && v < kMaxRanks ? int(v) : -1;
            };
            for (size_t i = 0; i + 1 < t.size(); ++i) {
                if (t[i] == "nGpus" || t[i] == "nThread") {
                    const int n = count(t[i + 1]);
                    if (n < 0)
                        return fail(number, t[i] + " " + printable(t[i + 1]) + " is not a count below "
                                                + std::to_string(kMaxRanks) + ": \"" + printable(line) + "\"");
                    if (t[i] == "nGpus")
                        nGpus = n;
                    else
                        nThread = std::max(1, n);
                }
            }
            const size_t r = t[0] == "#" ? 1 : 0;   // "#  Rank  0 Group 0 Pid ...", or bare
            if (t.size() >= r + 4 && t[r] == "Rank") {
                const int rank = count(t[r + 1]);
                if (rank < 0)
                    return fail(number, "rank " + printable(t[r + 1]) + " is not between 0 and " + std::to_string(kMaxRanks - 1)
                                            + ": \"" + printable(line) + "\"");
                for (size_t i = r + 2; i + 1 < t.size(); ++i)
                    if (t[i] == "on") {
                        if (rank > maxRank)
                            ++ranksOnHost[t[i + 1]];
                        break;
                    }
                maxRank = std::max(maxRank, rank);
            }
            continue;
        }
        // A table row starts with two whole numbers (size, count) and a data type; anything else
        // (MPI help text, launcher chatter, the test binary's banner) is not ours.
        if (t.size() >= 6 && isInteger(t[0]) && !isInteger(t[1]))
            return fail(number, "starts like a table row but its count is not a number: \"" + printable(line) + "\"");
        if (t.size() < 3 || !isInteger(t[0]) || !isInteger(t[1]))
            continue;
        if (!kTypes.count(t[2]))
            return fail(number, "looks like a table row but \"" + printable(t[2]) + "\" is not an nccl-tests data type: \""
                                    + printable(line) + "\"");
        size_t i = 3;
        if (i < t.size() && kRedops.count(t[i]))
            ++i;
        // What follows the root is time algbw busbw [#wrong], once or twice (out-of-place, in-place).
        const auto measuredColumns = [](size_t n) { return n == 3 || n == 4 || n == 6 || n == 8; };
        // A root column (modern tables, and old broadcast/reduce tables) is a whole number before
        // those; the count decides, as nccl-tests prints a time of 10 ms or more as a whole number
        // ("10340"), which old all_reduce tables (no root column) put in the same place.
        if (i < t.size() && isInteger(t[i]) && !measuredColumns(t.size() - i) && measuredColumns(t.size() - i - 1))
            ++i;   // root
        const size_t rest = t.size() - i;
        if (!measuredColumns(rest))
            return fail(number, "not a row of the nccl-tests table (size count type [redop root] time algbw busbw #wrong "
                                "[time algbw busbw #wrong]): \"" + printable(line) + "\"");
        double size = 0, seconds = 0, bus = 0;
        // nccl-tests prints "N/A" or "nan" for failed rows; toDouble rejects both.
        if (!toDouble(t[0], &size) || !toDouble(t[i], &seconds) || !toDouble(t[i + 2], &bus))
            return fail(number, "a size, time or busbw is not a finite number: \"" + printable(line) + "\"");
        if (!(size > 0) || size > kMaxSizeBytes)
            return fail(number, "size " + t[0] + " B is outside 1 B .. 16 TiB");
        seconds *= 1e-6;   // nccl-tests prints microseconds and GB/s
        if (!(seconds > 0) || seconds > kMaxSeconds)
            return fail(number, "time " + printable(t[i]) + " us is not a positive time below 1000 s");
        if (bus < 0)
            return fail(number, "busbw " + printable(t[i + 2]) + " GB/s is negative");
        if (out.empty() || pendingKnown || (!out.back().samples.empty() && size < out.back().samples.back().bytes))
            startTable(number);
        NcclLog &log = out.back();
        if (!log.samples.empty() && size == log.samples.back().bytes) {
            NcclSample &prev = log.samples.back();
            if (std::abs(seconds - prev.seconds) > kRepeatTolerance * std::min(seconds, prev.seconds))
                return fail(number, "size " + t[0] + " B appears again with " + printable(t[i]) + " us against "
                                        + std::to_string(prev.seconds * 1e6) + " us on line " + std::to_string(prev.line)
                                        + ": which one was measured?");
            prev.seconds = (prev.seconds + seconds) / 2;
            continue;
        }
        log.samples.push_back({size, seconds, bus * 1e9, number});
    }
    if (out.empty())
        return fail(0, "no nccl-tests result rows found (a row reads: size count type redop root time algbw busbw ...)");
    const long long headerRanks = (long long)nGpus * nThread;
    if (topology.ranks <= 0 && maxRank < 0 && headerRanks >= kMaxRanks)
        return fail(0, "nGpus x nThread = " + std::to_string(headerRanks) + " ranks is not a real run (at most "
                           + std::to_string(kMaxRanks - 1) + ")");
    const int ranks = topology.ranks > 0 ? topology.ranks : maxRank >= 0 ? maxRank + 1 : int(headerRanks);
    int hosts = int(ranksOnHost.size());
    if (topology.gpusPerNode > 0 && ranks > 0)
        hosts = std::max(1, (ranks + topology.gpusPerNode - 1) / topology.gpusPerNode);
    for (NcclLog &log : out) {
        if (!log.collectiveKnown && !hint.empty())
            log.collectiveKnown = collectiveFromName(hint, &log.collective);
        if (!log.collectiveKnown && collectiveFromName(source, &log.collective))
            log.collectiveKnown = true;
        if (!log.collectiveKnown)
            return fail(log.firstLine, "which collective is this? No \"Collective test starting\" line and no all_reduce, "
                                       "all_gather, ... in the file name: name it with --op");
        if (int(log.samples.size()) < kMinSizes)
            return fail(log.firstLine, "the table of " + std::string(nameOf(log.collective)) + " has "
                                           + std::to_string(log.samples.size()) + " sizes: at least 3 are needed to fit "
                                           "latency and bandwidth");
        log.ranks = ranks;
        log.hosts = hosts;
        log.algorithm = algorithmSeen;
        if (log.ranks < 2)
            return fail(0, "cannot tell how many ranks ran (no \"# Rank\" lines and no nGpus header): give --ranks N "
                           "--gpus-per-node G");
    }
    *logs = std::move(out);
    return true;
}

bool parseNcclLog(const std::string &text, const std::string &source, NcclLog *log, ParseError *error,
                  const std::string &hint, const LogTopology &topology)
{
    std::vector<NcclLog> logs;
    if (!parseNcclLogs(text, source, &logs, error, hint, topology))
        return false;
    *log = std::move(logs.front());
    return true;
}

namespace {

constexpr double kLargeBytes = 64.0 * (1 << 20);   // Simple protocol, bandwidth-bound on every fabric here
constexpr double kSmallBytes = 64.0 * 1024;        // latency-bound (LL)
constexpr double kLineRateSlack = 1.05;            // measurements above this share of the line rate are capped
constexpr double kPoorFitResidual = 0.5;

double geometricMean(const std::vector<double> &v)
{
    double sum = 0;
    for (double x : v)
        sum += std::log(x);
    return v.empty() ? 1.0 : std::exp(sum / double(v.size()));
}

} // namespace

TierFit fitTier(const NcclLog &log, const Cluster &clusterIn, Algorithm algorithmIn)
{
    const Algorithm algorithm = algorithmIn != Algorithm::Auto ? algorithmIn : log.algorithm;
    TierFit fit;
    fit.source = log.source;
    fit.collective = log.collective;
    fit.ranks = log.ranks;
    fit.points = int(log.samples.size());
    if (fit.points < kMinSizes || log.ranks < 2) {
        fit.error = "need at least three message sizes and two ranks to fit latency and bandwidth";
        return fit;
    }
    // The topology the log ran on: its hosts if it names them, else the cluster's node size.
    Cluster cluster = clusterIn;
    const int perNode = log.hosts > 0 ? std::max(1, log.ranks / log.hosts) : std::min(log.ranks, std::max(1, cluster.gpusPerNode));
    if (log.hosts > 1 || perNode < log.ranks) {
        // The log's hosts ran `perNode` ranks: they had the NICs of those GPUs (the cluster's
        // rails per GPU), not a whole node's.
        cluster.rails = std::max(1, int(std::lround(double(cluster.rails) * perNode / std::max(1, cluster.gpusPerNode))));
        cluster.gpusPerNode = perNode;
    }
    cluster.gpus = std::max(cluster.gpus, log.ranks);
    const Group group = groupOf(log.ranks, 1, cluster.gpusPerNode, log.ranks);
    fit.ranksPerNode = group.ranksPerNode;
    const bool inter = group.nodes() > 1;
    fit.tier = inter ? "inter_node" : "intra_node";
    Link &link = inter ? cluster.interNode : cluster.intraNode;
    fit.lineRateBytesPerSecond = link.bytesPerSecond;
    const Link nominal = link;

    auto predict = [&](double bytes) {
        const CollectiveTime t = collectiveTime(log.collective, algorithm, bytes, group, fabricOf(cluster));
        return t.applicable ? t.seconds : collectiveTime(log.collective, Algorithm::Auto, bytes, group, fabricOf(cluster)).seconds;
    };
    std::vector<const NcclSample *> large, small;
    const double largeFrom = log.samples.back().bytes >= 4 * kLargeBytes ? 4 * kLargeBytes : kLargeBytes;
    for (const NcclSample &s : log.samples) {
        if (s.bytes >= largeFrom)
            large.push_back(&s);
        if (s.bytes <= kSmallBytes)
            small.push_back(&s);
    }
    if (large.empty()) {   // a log of small sizes only: its largest third
        for (size_t i = log.samples.size() - std::max<size_t>(1, log.samples.size() / 3); i < log.samples.size(); ++i)
            large.push_back(&log.samples[i]);
        fit.notes.push_back("no message of 64 MiB or more: the bandwidth comes from the largest sizes and may be low");
    }
    // Bandwidth from the large messages, latency from the small ones, alternated: each moves the
    // other's regime a little.
    for (int pass = 0; pass < 3; ++pass) {
        // Bandwidth: scale the tier's efficiency until the model's large-message times match (the
        // bandwidth term is inverse in it; a few rounds settle algorithm changes).
        for (int round = 0; round < 6; ++round) {
            std::vector<double> ratios;
            const double latency = predict(1.0);
            for (const NcclSample *s : large) {
                const double predicted = predict(s->bytes);
                const double measuredTransfer = s->seconds - latency, predictedTransfer = predicted - latency;
                if (measuredTransfer > 0 && predictedTransfer > 0)
                    ratios.push_back(predictedTransfer / measuredTransfer);
            }
            if (ratios.empty()) {
                fit.error = "the times do not grow with message size: no bandwidth can be fitted";
                return fit;
            }
            link.efficiency = std::clamp(link.efficiency * geometricMean(ratios), 1e-6, 1e6);
        }
        if (link.efficiency > kLineRateSlack && pass == 2) {
            fit.cappedAtLineRate = true;
            fit.notes.push_back("the measurement implies " + std::to_string(std::lround(std::min(link.efficiency, 1e6) * 100))
                                + "% of the line rate: the fabric is faster than the scenario says (more NICs, NVLS or "
                                  "SHARP?); the link is held at its line rate");
        }
        link.efficiency = std::min(link.efficiency, 1.0);
        // Latency: scale the tier's per-step latency until the small messages match.
        if (!small.empty() && nominal.latencySeconds > 0) {
            fit.latencyIdentified = true;
            for (int round = 0; round < 4; ++round) {
                std::vector<double> ratios;
                for (const NcclSample *s : small)
                    ratios.push_back(s->seconds / predict(s->bytes));
                link.latencySeconds = std::clamp(link.latencySeconds * geometricMean(ratios), 0.0, 1.0);
            }
        } else {
            if (pass == 0)
                fit.notes.push_back("no message of 64 KiB or less: the latency cannot be identified; the link keeps its "
                                    "latency");
        }
    }
    // The tier's own name first: it says the fabric (a pcie link) and the NVLink generation
    // (nvlink4-h800: NVLink SHARP, NCCL's LL ceiling), which the fit was made under.
    link.name = nominal.name + " calibrated:" + log.source;
    fit.link = link;
    fit.latencySeconds = link.latencySeconds;
    fit.linkBytesPerSecond = link.bytesPerSecond * link.efficiency;
    const NcclSample &biggest = log.samples.back();
    fit.busBytesPerSecond = biggest.busBytesPerSecond > 0
                                ? biggest.busBytesPerSecond
                                : biggest.bytes / biggest.seconds * busBandwidthFactor(log.collective, log.ranks);
    fit.bandwidthBytesPerSecond = fit.busBytesPerSecond;
    double sumSquares = 0, worstSmall = 0;
    for (const NcclSample &s : log.samples) {
        const double t = predict(s.bytes);
        fit.fittedSeconds.push_back(t);
        const double r = (t - s.seconds) / s.seconds;
        sumSquares += r * r;
        fit.maxRelativeResidual = std::max(fit.maxRelativeResidual, std::abs(r));
        if (s.bytes < kLargeBytes)
            worstSmall = std::max(worstSmall, std::abs(r));
    }
    fit.rmsRelativeResidual = std::sqrt(sumSquares / fit.points);
    if (worstSmall > kPoorFitResidual)
        fit.notes.push_back("below 64 MiB the model misses a measured time by " + std::to_string(std::lround(std::min(worstSmall, 1e6) * 100))
                            + "%: one latency and one bandwidth do not describe every protocol regime of this log");
    return fit;
}

void applyFit(Cluster &cluster, const TierFit &fit)
{
    Link &link = fit.tier == "inter_node" ? cluster.interNode : cluster.intraNode;
    link = fit.link;
}

Scenario withFits(Scenario scenario, const std::vector<TierFit> &fits)
{
    for (const TierFit &f : fits)
        applyFit(scenario.cluster, f);
    return scenario;
}

} // namespace ts
