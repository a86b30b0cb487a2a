// SPDX-License-Identifier: MIT
#include "calibration.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
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

// Ring steps on the critical path for the collectives nccl-tests times (n ranks).
int ringSteps(Collective c, int n)
{
    switch (c) {
    case Collective::AllReduce: return 2 * (n - 1);
    case Collective::AllGather:
    case Collective::ReduceScatter:
    case Collective::AllToAll:
    case Collective::Broadcast:
    case Collective::Reduce: return n - 1;
    case Collective::SendRecv: return 1;
    }
    return 1;
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

bool parseNcclLog(const std::string &text, const std::string &source, NcclLog *log, ParseError *error,
                  const std::string &hint)
{
    NcclLog out;
    out.source = source;
    std::set<std::string> hosts;
    int rankLines = 0, nGpus = 0, nThread = 1;
    std::istringstream in(text);
    std::string line;
    int number = 0;
    static const std::set<std::string> kRedops = {"sum", "prod", "min", "max", "avg", "none", "mulsum", "-"};
    static const std::set<std::string> kTypes = {"int8", "uint8", "int32", "uint32", "int64", "uint64", "half", "float",
                                                 "double", "bfloat16", "fp8_e4m3", "fp8_e5m2", "int", "char"};
    while (std::getline(in, line)) {
        ++number;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        const std::vector<std::string> t = split(line);
        if (t.empty())
            continue;
        if (t[0][0] == '#' || line.find("NCCL INFO") != std::string::npos || line.find("NCCL WARN") != std::string::npos
            || line.find("RCCL") != std::string::npos) {
            // Header lines: which collective, how many ranks, on how many hosts.
            if (const auto at = line.find("Collective test starting:"); at != std::string::npos)
                out.collectiveKnown = collectiveFromName(line.substr(at + 25), &out.collective) || out.collectiveKnown;
            for (size_t i = 0; i + 1 < t.size(); ++i) {
                if (t[i] == "nGpus")
                    nGpus = std::atoi(t[i + 1].c_str());
                if (t[i] == "nThread")
                    nThread = std::max(1, std::atoi(t[i + 1].c_str()));
            }
            if (t.size() >= 5 && (t[0] == "#" && t[1] == "Rank")) {
                ++rankLines;
                for (size_t i = 2; i + 1 < t.size(); ++i)
                    if (t[i] == "on") {
                        hosts.insert(t[i + 1]);
                        break;
                    }
            }
            continue;
        }
        // Lines that are not the table (launcher chatter) are skipped unless they look like a row.
        if (!isInteger(t[0])) {
            if (t.size() >= 6 && std::isdigit(static_cast<unsigned char>(t[0][0])))
                goto malformed;
            continue;
        }
        {
            // size count type [redop] [root] time algbw busbw #wrong [time algbw busbw #wrong]
            if (t.size() < 6 || !isInteger(t[1]) || !kTypes.count(t[2]))
                goto malformed;
            size_t i = 3;
            if (i < t.size() && kRedops.count(t[i]))
                ++i;
            if (i < t.size() && isInteger(t[i]) && t.size() - i > 4)
                ++i;   // root
            const size_t rest = t.size() - i;
            if (rest != 4 && rest != 8 && rest != 3 && rest != 6)
                goto malformed;
            const size_t group = (rest == 8 || rest == 4) ? 4 : 3;   // with or without #wrong
            double size = 0, time1 = 0, bus1 = 0, time2 = 0, bus2 = 0;
            if (!toDouble(t[0], &size) || !toDouble(t[i], &time1) || !toDouble(t[i + 2], &bus1))
                goto malformed;
            double seconds = time1, bus = bus1;
            if (rest >= 6) {
                if (!toDouble(t[i + group], &time2) || !toDouble(t[i + group + 2], &bus2))
                    goto malformed;
                seconds = (time1 + time2) / 2;
                bus = (bus1 + bus2) / 2;
            }
            if (size < 0 || !(seconds > 0))
                goto malformed;
            out.samples.push_back({size, seconds * 1e-6, bus * 1e9});   // nccl-tests prints us and GB/s
            continue;
        }
    malformed:
        error->line = number;
        error->message = "line " + std::to_string(number) + " of " + source + " is not a row of the nccl-tests table "
                         "(size count type [redop root] time algbw busbw #wrong ...): \"" + line.substr(0, 120) + "\"";
        return false;
    }
    if (out.samples.empty()) {
        error->line = 0;
        error->message = source + ": no nccl-tests result rows found";
        return false;
    }
    if (!out.collectiveKnown && !hint.empty())
        out.collectiveKnown = collectiveFromName(hint, &out.collective);
    if (!out.collectiveKnown && collectiveFromName(source, &out.collective))
        out.collectiveKnown = true;
    if (!out.collectiveKnown) {
        error->message = source + ": which collective is this? (no \"Collective test starting\" line and no "
                                  "all_reduce/all_gather/... in the file name)";
        return false;
    }
    out.ranks = rankLines > 0 ? rankLines : nGpus * nThread;
    if (out.ranks < 2) {
        error->message = source + ": cannot tell how many ranks ran (no \"# Rank\" lines or nGpus header)";
        return false;
    }
    out.hosts = std::max<int>(1, int(hosts.size()));
    *log = std::move(out);
    return true;
}

TierFit fitTier(const NcclLog &log)
{
    TierFit fit;
    fit.source = log.source;
    fit.collective = log.collective;
    fit.ranks = log.ranks;
    fit.tier = log.hosts > 1 ? "inter_node" : "intra_node";
    std::vector<NcclSample> samples;
    for (const NcclSample &s : log.samples)
        if (s.bytes > 0)
            samples.push_back(s);
    fit.points = int(samples.size());
    if (fit.points < 2) {
        fit.error = "need at least two message sizes to fit latency and bandwidth";
        return fit;
    }
    const int steps = ringSteps(log.collective, log.ranks);
    const double factor = busBandwidthFactor(log.collective, log.ranks);
    // Relative least squares: each row of [steps, factor S] . [alpha, 1/beta] = t is divided by t.
    Eigen::MatrixXd a(fit.points, 2);
    Eigen::VectorXd b(fit.points);
    for (int i = 0; i < fit.points; ++i) {
        const NcclSample &s = samples[size_t(i)];
        a(i, 0) = steps / s.seconds;
        a(i, 1) = factor * s.bytes / s.seconds;
        b(i) = 1.0;
    }
    Eigen::Vector2d x = a.colPivHouseholderQr().solve(b);
    // A negative latency is unphysical (all points bandwidth-bound): refit with alpha = 0.
    if (!(x(0) >= 0)) {
        const double inverseBeta = a.col(1).dot(b) / a.col(1).squaredNorm();
        x = Eigen::Vector2d(0.0, inverseBeta);
    }
    if (!(x(1) > 0) || !std::isfinite(x(1))) {
        fit.error = "the times do not grow with message size: no bandwidth can be fitted";
        return fit;
    }
    fit.latencySeconds = x(0);
    fit.bandwidthBytesPerSecond = 1.0 / x(1);
    double sumSquares = 0;
    for (const NcclSample &s : samples) {
        const double t = steps * fit.latencySeconds + factor * s.bytes / fit.bandwidthBytesPerSecond;
        fit.fittedSeconds.push_back(t);
        const double r = (t - s.seconds) / s.seconds;
        sumSquares += r * r;
        fit.maxRelativeResidual = std::max(fit.maxRelativeResidual, std::abs(r));
    }
    fit.rmsRelativeResidual = std::sqrt(sumSquares / fit.points);
    return fit;
}

void applyFit(Cluster &cluster, const TierFit &fit)
{
    Link &link = fit.tier == "inter_node" ? cluster.interNode : cluster.intraNode;
    link = {"calibrated:" + fit.source, fit.bandwidthBytesPerSecond, fit.latencySeconds, 1.0};
    if (fit.tier == "inter_node") {
        cluster.rails = cluster.gpusPerNode;
        cluster.oversubscription = 1;
    }
}

} // namespace ts
