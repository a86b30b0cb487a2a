// SPDX-License-Identifier: MIT
#include "scenarioedit.h"

#include "scenarioio.h"
#include "shape.h"
#include "units.h"

#include <cmath>

namespace ts {

namespace {
int asInt(double v) { return int(std::lround(v)); }

// DP is what the GPUs leave over; when it does not divide, DP is left as it is and the model
// reports the mismatch next to the control (never a silent change elsewhere).
void rebalanceDp(Scenario &s)
{
    const long long modelParallel = (long long)s.plan.tp * s.plan.pp * s.plan.cp;
    if (modelParallel > 0 && s.cluster.gpus % modelParallel == 0)
        s.plan.dp = int(s.cluster.gpus / modelParallel);
}
} // namespace

EditResult applyFieldEdit(const Scenario &in, Field field, double v)
{
    EditResult r{in, {}};
    Scenario &s = r.scenario;
    switch (field) {
    case Field::Parameters: {   // the panel shows billions
        if (!(v >= 0.001 && v <= 100000)) {   // 1e6 .. 1e14 parameters
            r.note = QStringLiteral("workload.parameters: must be between 0.001 and 100000 billion (got %1)").arg(v);
            break;
        }
        const DerivedShape d = deriveShape(v * 1e9, s.workload.vocab, s.workload.seqLen);
        s.workload = d.workload;
        r.note = QString::fromStdString(d.description);
        break;
    }
    case Field::SeqLen: s.workload.seqLen = asInt(v); break;
    case Field::GlobalBatch: s.training.globalBatch = std::llround(v); break;
    case Field::MicroBatch: s.training.microBatch = asInt(v); break;
    case Field::Precision: s.training.precision = Precision(asInt(v)); break;
    case Field::Recompute: s.training.recompute = Recompute(asInt(v)); break;
    case Field::Tokens: s.training.tokens = v * 1e9; break;   // the panel shows billions
    case Field::Gpus:
        s.cluster.gpus = asInt(v);
        rebalanceDp(s);
        break;
    case Field::GpusPerNode: s.cluster.gpusPerNode = asInt(v); s.cluster.rails = s.cluster.gpusPerNode; break;
    case Field::Rails: s.cluster.rails = asInt(v); break;
    case Field::Oversubscription: s.cluster.oversubscription = v; break;
    case Field::InNetworkReduction: s.cluster.inNetworkReduction = v != 0; break;
    case Field::Transport: s.cluster.transport = v != 0 ? Transport::Rdma : Transport::Tcp; break;
    case Field::Tp: s.plan.tp = asInt(v); rebalanceDp(s); break;
    case Field::Pp: s.plan.pp = asInt(v); rebalanceDp(s); break;
    case Field::Cp: s.plan.cp = asInt(v); rebalanceDp(s); break;
    case Field::Dp:
        s.plan.dp = asInt(v);
        s.cluster.gpus = s.plan.tp * s.plan.pp * s.plan.cp * s.plan.dp;
        break;
    case Field::SequenceParallel: s.plan.sequenceParallel = v != 0; break;
    case Field::Schedule: s.plan.schedule = Schedule(asInt(v)); break;
    case Field::VirtualStages: s.plan.virtualStages = asInt(v); break;
    case Field::Zero: s.plan.zeroStage = asInt(v); break;
    case Field::OverlapDp: s.plan.overlapDp = v != 0; break;
    case Field::TpOverlap: s.plan.tpOverlap = v != 0; break;
    case Field::IntraLatency: s.cluster.intraNode.latencySeconds = v * 1e-6; break;
    case Field::InterLatency: s.cluster.interNode.latencySeconds = v * 1e-6; break;
    case Field::IntraEfficiency: s.cluster.intraNode.efficiency = v / 100; break;
    case Field::InterEfficiency: s.cluster.interNode.efficiency = v / 100; break;
    case Field::IntraBandwidth: s.cluster.intraNode.bytesPerSecond = v * units::kBytesPerGB; break;
    case Field::InterBandwidth: s.cluster.interNode.bytesPerSecond = units::gigabitsPerSecondToBytesPerSecond(v); break;
    case Field::Bucket: s.plan.bucketBytes = v * units::kBytesPerMB; break;
    case Field::BucketAuto: s.plan.bucketBytes = v != 0 ? kFrameworkBucket : 25e6; break;
    case Field::Compression: s.plan.compression = v; break;
    case Field::Jitter: s.plan.jitter = v / 100; break;
    case Field::LocalSgd: s.plan.localSgdInterval = asInt(v); break;
    case Field::Count: break;
    }
    return r;
}

bool applyPreset(Scenario *s, const QString &kind, const QString &name, QString *error)
{
    ScenarioError e;
    bool ok = false;
    if (kind == QLatin1String("model")) {
        Workload w;
        ok = workloadFromPreset(name, &w, &e);
        if (ok)
            s->workload = w;
    } else if (kind == QLatin1String("gpu")) {
        Gpu g;
        ok = gpuFromPreset(name, &g, &e);
        if (ok)
            s->cluster.gpu = g;
    } else if (kind == QLatin1String("intra_node") || kind == QLatin1String("inter_node")) {
        Link l;
        std::optional<Transport> transport;
        ok = linkFromPreset(name, &l, &transport, &e);
        if (ok && kind == QLatin1String("intra_node"))
            s->cluster.intraNode = l;
        if (ok && kind == QLatin1String("inter_node")) {
            s->cluster.interNode = l;
            if (transport)
                s->cluster.transport = *transport;
        }
    } else if (kind == QLatin1String("cluster")) {
        Cluster c;
        ok = clusterFromPreset(name, &c, &e);
        if (ok) {
            s->cluster = c;
            rebalanceDp(*s);
        }
    } else {
        e.message = QStringLiteral("unknown preset kind %1").arg(kind);
    }
    if (!ok && error)
        *error = e.text();
    return ok;
}

} // namespace ts
