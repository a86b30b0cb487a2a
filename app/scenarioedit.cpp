// SPDX-License-Identifier: MIT
#include "scenarioedit.h"

#include "fields.h"
#include "scenarioio.h"

namespace ts {


bool applyPreset(Scenario *s, const QString &kind, const QString &name, QString *error)
{
    ScenarioError e;
    bool ok = false;
    if (kind == QLatin1String("model")) {
        Workload w;
        ok = workloadFromPreset(name, &w, &e);
        if (ok) {
            s->workload = w;
            if (w.experts == 0) {   // a dense model has no experts to split
                s->plan.ep = 1;
                s->plan.epOverlap = false;
            }
        }
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
            *s = withField(*s, Field::Gpus, c.gpus).scenario;   // DP follows the preset's GPU count
        }
    } else {
        e.message = QStringLiteral("unknown preset kind %1").arg(kind);
    }
    if (!ok && error)
        *error = e.text();
    return ok;
}

} // namespace ts
