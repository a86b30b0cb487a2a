// SPDX-License-Identifier: MIT
#include "scenarioedit.h"

#include "fields.h"
#include "presets.h"
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
        if (ok) {
            // The node's NVLink follows the GPU when it is the old GPU's own (a GPU preset's
            // node_link: H100's nvlink4 becomes H800's 8-link nvlink4-h800, B200's nvlink5, and
            // back); a link chosen otherwise (PCIe, a custom or calibrated one) stays.
            const Presets &presets = Presets::builtin();
            const QString oldLink = presets.find(Presets::Gpus, QString::fromStdString(s->cluster.gpu.name))
                                        .value(QLatin1String("node_link")).toString();
            const QString newLink = presets.find(Presets::Gpus, name).value(QLatin1String("node_link")).toString();
            Link link;
            std::optional<Transport> transport;
            if (!oldLink.isEmpty() && !newLink.isEmpty() && QString::fromStdString(s->cluster.intraNode.name) == oldLink
                && linkFromPreset(newLink, &link, &transport, &e))
                s->cluster.intraNode = link;
            s->cluster.gpu = g;
        }
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
