// SPDX-License-Identifier: MIT
// Fabric calibration from nccl-tests (and rccl-tests) output: parse the tables as people paste
// them, then fit each tier's physical link (per-step latency, per-direction bandwidth) through the
// same collective model the step time uses, so every algorithm's time follows from the fit.
#pragma once

#include "collectives.h"

#include <string>
#include <vector>

namespace ts {

struct NcclSample
{
    double bytes = 0;
    double seconds = 0;            // out-of-place time (nccl-tests' first time column)
    double busBytesPerSecond = 0;  // out-of-place busbw as printed, for the plot
    int line = 0;                  // 1-based line in the paste
};

struct NcclLog
{
    std::string source;          // file name, for messages
    Collective collective = Collective::AllReduce;
    bool collectiveKnown = false;
    int ranks = 0;               // from "# Rank" lines, nGpus x nThread, or the caller
    int hosts = 0;               // distinct hosts in the "# Rank ... on HOST" lines; 0 = unknown
    int firstLine = 0;           // where this collective's table starts in the paste
    Algorithm algorithm = Algorithm::Auto;   // NCCL_ALGO when the paste's NCCL INFO lines say it
    std::vector<NcclSample> samples;
};

struct ParseError
{
    int line = 0;                // 1-based, 0 when not tied to a line
    std::string message;
};

/// Where the ranks of a paste ran, when the paste does not say (no "# Rank" lines or header).
struct LogTopology
{
    int ranks = 0;               // 0 = from the log
    int gpusPerNode = 0;         // 0 = from the log's hosts, else the cluster's
};

/// Parses every collective in a paste: NCCL INFO/WARN, MPI and launcher lines anywhere, `srun
/// --label` prefixes ("0: "), with or without a header, in-place and out-of-place columns. A new
/// table starts at "Collective test starting" or when the sizes start again from small. Rejects
/// with the line number: zero, negative, NaN or absurd sizes and times, a size repeated with
/// inconsistent times, a table of fewer than three sizes.
bool parseNcclLogs(const std::string &text, const std::string &source, std::vector<NcclLog> *logs, ParseError *error,
                   const std::string &hint = {}, const LogTopology &topology = {});
/// The first collective of a paste (see parseNcclLogs).
bool parseNcclLog(const std::string &text, const std::string &source, NcclLog *log, ParseError *error,
                  const std::string &hint = {}, const LogTopology &topology = {});

/// Name in nccl-tests binaries ("all_reduce", "all_gather", ...), or false.
bool collectiveFromName(const std::string &name, Collective *collective);

struct TierFit
{
    std::string tier;            // "intra_node" (one node) or "inter_node"
    std::string source;
    Collective collective = Collective::AllReduce;
    int ranks = 0;
    int ranksPerNode = 0;
    int points = 0;
    Link link;                   // the fitted link: nominal line rate, fitted latency and efficiency
    double latencySeconds = 0;           // per-step latency of the tier (Link::latencySeconds)
    double linkBytesPerSecond = 0;       // achievable per direction: one NIC, or one GPU's NVLinks/PCIe
    double lineRateBytesPerSecond = 0;   // the link's nominal rate the fit is held under
    double busBytesPerSecond = 0;        // measured busbw of the largest message
    double bandwidthBytesPerSecond = 0;  // achievable bus bandwidth per GPU (the largest messages)
    bool latencyIdentified = false;      // false: no message small enough to see the latency
    bool cappedAtLineRate = false;       // the measurement implies more than the line rate
    double rmsRelativeResidual = 0;
    double maxRelativeResidual = 0;
    std::vector<double> fittedSeconds;   // the model with the fitted link, per sample
    std::vector<std::string> notes;      // what the fit could not explain, in words
    std::string error;
};

/// Fits the tier the log ran on (one node: intra_node; several: inter_node) against `cluster`'s
/// topology and links: the bandwidth scale that makes the model's large-message time match, held
/// under the line rate, and the latency scale that matches the small messages.
/// `algorithm`: what NCCL ran (NCCL_ALGO); Auto = the log's NCCL INFO line, else NCCL's own choice.
TierFit fitTier(const NcclLog &log, const Cluster &cluster, Algorithm algorithm = Algorithm::Auto);

/// Puts a fit's link into the cluster for its tier (rails and oversubscription stay: the fit is
/// per NIC).
void applyFit(Cluster &cluster, const TierFit &fit);
/// The scenario with every fit applied.
Scenario withFits(Scenario scenario, const std::vector<TierFit> &fits);

} // namespace ts
