// SPDX-License-Identifier: MIT
#include "reportdata.h"

#include <cmath>
#include <limits>

#include "economics.h"
#include "evaluate.h"
#include "formatting.h"
#include "pipeline.h"
#include "scaling.h"

#include <QJsonArray>

#include <cmath>
#include <limits>

namespace ts {

namespace {

constexpr double kTargetPipelineEfficiency = 0.8;
constexpr double kCommEqualsComputeFraction = 0.5;

struct Extras
{
    long long microBatchesFor80 = 0;
    int maxStagesFor80 = 0;
    double p2pBytesPerSecondForCompute = 0;   // move one step's boundary traffic within the compute time
    BandwidthRequirement bandwidthForCommLeCompute;
};

Extras extrasOf(const Scenario &sc, const Evaluation &e)
{
    Extras x;
    StageTimes st{e.stageForwardSeconds, e.stageBackwardSeconds, e.stageWeightGradSeconds, e.p2pSecondsPerTransfer};
    const int v = chunksPerStage(sc.plan);
    if (sc.plan.pp > 1) {
        x.microBatchesFor80 = requiredMicroBatches(sc.plan.schedule, sc.plan.pp, v, kTargetPipelineEfficiency, st);
        x.maxStagesFor80 = maxStagesForEfficiency(sc.plan.schedule, e.microBatches, v, kTargetPipelineEfficiency, st);
        if (e.breakdown.computeSeconds > 0)
            x.p2pBytesPerSecondForCompute = e.ppTransferBytesPerStep / e.breakdown.computeSeconds;
    }
    x.bandwidthForCommLeCompute = requiredBandwidth(sc, kCommEqualsComputeFraction);
    return x;
}

} // namespace

QList<ReportRow> evaluationRows(const Evaluation &e)
{
    const Breakdown &b = e.breakdown;
    const MemoryBreakdown &m = e.memory;
    // MFU and TFLOP/s are not defined when the step's compute time is given, not computed.
    const double na = std::numeric_limits<double>::quiet_NaN();
    const auto flops = [&](double x) { return e.flopsApplicable ? x : na; };
    return {
        {QStringLiteral("step_time_s"), b.stepSeconds, QStringLiteral("s"), QStringLiteral("Step time (mean)")},
        {QStringLiteral("step_time_median_s"), e.stepMedianSeconds, QStringLiteral("s"), QStringLiteral("Step time, median")},
        {QStringLiteral("step_time_p99_s"), e.stepP99Seconds, QStringLiteral("s"), QStringLiteral("Step time, p99")},
        {QStringLiteral("compute_s"), b.computeSeconds, QStringLiteral("s"), QStringLiteral("Compute")},
        {QStringLiteral("tp_comm_s"), b.tpCommSeconds, QStringLiteral("s"), QStringLiteral("TP communication, total")},
        {QStringLiteral("tp_comm_exposed_s"), b.tpCommExposedSeconds, QStringLiteral("s"), QStringLiteral("TP communication, exposed")},
        {QStringLiteral("cp_comm_s"), b.cpCommSeconds, QStringLiteral("s"), QStringLiteral("CP communication, total")},
        {QStringLiteral("cp_comm_exposed_s"), b.cpCommExposedSeconds, QStringLiteral("s"), QStringLiteral("CP communication, exposed")},
        {QStringLiteral("ep_comm_s"), b.epCommSeconds, QStringLiteral("s"), QStringLiteral("EP all-to-all, total")},
        {QStringLiteral("ep_comm_exposed_s"), b.epCommExposedSeconds, QStringLiteral("s"), QStringLiteral("EP all-to-all, exposed")},
        {QStringLiteral("pp_bubble_s"), b.ppBubbleSeconds, QStringLiteral("s"), QStringLiteral("Pipeline bubble")},
        {QStringLiteral("pp_p2p_s"), b.ppP2pSeconds, QStringLiteral("s"), QStringLiteral("Pipeline p2p, total")},
        {QStringLiteral("pp_p2p_exposed_s"), b.ppP2pExposedSeconds, QStringLiteral("s"), QStringLiteral("Pipeline p2p, exposed")},
        {QStringLiteral("dp_comm_s"), b.dpCommSeconds, QStringLiteral("s"), QStringLiteral("DP gradient sync, total")},
        {QStringLiteral("dp_comm_exposed_s"), b.dpCommExposedSeconds, QStringLiteral("s"), QStringLiteral("DP gradient sync, exposed")},
        {QStringLiteral("optimizer_s"), b.optimizerSeconds, QStringLiteral("s"), QStringLiteral("Optimizer step")},
        {QStringLiteral("offload_exposed_s"), b.offloadExposedSeconds, QStringLiteral("s"), QStringLiteral("Activation offload, exposed")},
        {QStringLiteral("straggler_s"), b.stragglerSeconds, QStringLiteral("s"), QStringLiteral("Straggler allowance")},
        {QStringLiteral("pp_bubble_fraction"), e.ppBubbleFraction, QStringLiteral("1"), QStringLiteral("Bubble, share of pipeline time")},
        {QStringLiteral("pp_bubble_fraction_of_ideal"), e.ppBubbleFractionOfIdeal, QStringLiteral("1"), QStringLiteral("Bubble, share of ideal time")},
        {QStringLiteral("pipeline_efficiency"), e.pipelineEfficiency, QStringLiteral("1"), QStringLiteral("Pipeline efficiency")},
        {QStringLiteral("communication_fraction"), e.communicationFraction, QStringLiteral("1"), QStringLiteral("Exposed communication share")},
        {QStringLiteral("mfu"), flops(e.mfu), QStringLiteral("1"), QStringLiteral("MFU (model FLOPs, causal attention as executed)")},
        {QStringLiteral("mfu_full_attention"), flops(e.mfuFullAttention), QStringLiteral("1"), QStringLiteral("Model FLOPs with full s\u00b2 attention / peak")},
        {QStringLiteral("hfu"), flops(e.hfu), QStringLiteral("1"), QStringLiteral("HFU (hardware FLOPs, with recompute)")},
        {QStringLiteral("model_tflops_per_gpu"), flops(e.modelFlopsPerSecondPerGpu / 1e12), QStringLiteral("TFLOP/s"), QStringLiteral("Model TFLOP/s per GPU")},
        {QStringLiteral("hardware_tflops_per_gpu"), flops(e.hardwareFlopsPerSecondPerGpu / 1e12), QStringLiteral("TFLOP/s"), QStringLiteral("Hardware TFLOP/s per GPU (SC21 Eq. 3)")},
        {QStringLiteral("tokens_per_s"), e.tokensPerSecond, QStringLiteral("1/s"), QStringLiteral("Tokens per second")},
        {QStringLiteral("train_time_s"), e.trainSeconds, QStringLiteral("s"), QStringLiteral("Time to train the token budget")},
        {QStringLiteral("train_gpu_hours"), e.gpuHours, QStringLiteral("GPU h"), QStringLiteral("GPU-hours to train")},
        {QStringLiteral("parameters"), e.parameters, QStringLiteral("1"), QStringLiteral("Parameters")},
        {QStringLiteral("active_parameters"), e.activeParameters, QStringLiteral("1"), QStringLiteral("Parameters per token (MoE: k of the experts)")},
        {QStringLiteral("micro_batches"), double(e.microBatches), QStringLiteral("1"), QStringLiteral("Micro-batches per step (m)")},
        {QStringLiteral("gradient_bytes_per_gpu"), e.gradientBytesPerGpu, QStringLiteral("B"), QStringLiteral("Gradient bytes per GPU")},
        {QStringLiteral("memory_per_gpu_bytes"), m.totalBytes, QStringLiteral("B"), QStringLiteral("Memory per GPU")},
        {QStringLiteral("memory_capacity_bytes"), m.capacityBytes, QStringLiteral("B"), QStringLiteral("HBM per GPU")},
    };
}

QJsonObject evaluationToJson(const Scenario &sc, const Evaluation &e, const QStringList &notes)
{
    QJsonObject o;
    o.insert(QStringLiteral("feasible"), e.feasible);
    if (!notes.isEmpty())
        o.insert(QStringLiteral("notes"), QJsonArray::fromStringList(notes));
    if (!e.feasible) {
        o.insert(QStringLiteral("error"), QJsonObject{{QStringLiteral("key"), QString::fromStdString(e.problem.field)},
                                                      {QStringLiteral("message"), QString::fromStdString(e.problem.message)}});
        return o;
    }
    for (const ReportRow &r : evaluationRows(e))
        o.insert(r.key, std::isnan(r.value) ? QJsonValue(QJsonValue::Null) : QJsonValue(r.value));
    o.insert(QStringLiteral("framework"), QLatin1String(nameOf(e.framework)));
    o.insert(QStringLiteral("kernels"), QLatin1String(nameOf(e.kernels)));
    const Training &tr = sc.training;
    o.insert(QStringLiteral("fp8_recipe"),
             tr.precision == Precision::Fp8 ? QJsonValue(QLatin1String(nameOf(tr.fp8Recipe))) : QJsonValue(QJsonValue::Null));
    o.insert(QStringLiteral("fp8_attention"), tr.precision == Precision::Fp8 && tr.fp8Attention);
    o.insert(QStringLiteral("recomputed_layer_share"), e.recomputedLayerShare);
    o.insert(QStringLiteral("model_flops_per_step_causal"), e.modelFlopsPerStepCausal);
    o.insert(QStringLiteral("compute"), QJsonObject{{QStringLiteral("layer_gemm_s"), e.layerGemmSeconds},
                                                    {QStringLiteral("layer_attention_s"), e.layerAttentionSeconds},
                                                    {QStringLiteral("layer_elementwise_s"), e.layerElementwiseSeconds},
                                                    {QStringLiteral("critical_stage"), e.criticalStage},
                                                    {QStringLiteral("critical_stage_layers"), e.criticalStageLayers}});
    o.insert(QStringLiteral("steps_to_train"), e.stepsToTrain);
    o.insert(QStringLiteral("tokens_per_step"), e.tokensPerStep);
    o.insert(QStringLiteral("model_flops_per_step"), e.modelFlopsPerStep);
    o.insert(QStringLiteral("hardware_flops_per_step"), e.hardwareFlopsPerStep);
    o.insert(QStringLiteral("peak_flops_per_gpu"), e.peakFlopsPerGpu);
    o.insert(QStringLiteral("kernel_efficiency"), e.kernelEfficiency);
    o.insert(QStringLiteral("fits_in_memory"), e.memory.fits);
    const MemoryBreakdown &m = e.memory;
    o.insert(QStringLiteral("memory"), QJsonObject{{QStringLiteral("weights_bytes"), m.weightsBytes},
                                                   {QStringLiteral("gradients_bytes"), m.gradientsBytes},
                                                   {QStringLiteral("optimizer_bytes"), m.optimizerBytes},
                                                   {QStringLiteral("activations_bytes"), m.activationsBytes},
                                                   {QStringLiteral("loss_bytes"), m.lossBytes},
                                                   {QStringLiteral("buffers_bytes"), m.buffersBytes},
                                                   {QStringLiteral("runtime_bytes"), m.runtimeBytes},
                                                   {QStringLiteral("total_bytes"), m.totalBytes},
                                                   {QStringLiteral("offloaded_bytes"), m.offloadedBytes},
                                                   {QStringLiteral("host_capacity_bytes"), m.hostCapacityBytes},
                                                   {QStringLiteral("stage"), m.stage},
                                                   {QStringLiteral("stages"), m.stages},
                                                   {QStringLiteral("first_stage_bytes"), e.memoryFirstStageBytes},
                                                   {QStringLiteral("last_stage_bytes"), e.memoryLastStageBytes},
                                                   {QStringLiteral("capacity_bytes"), m.capacityBytes},
                                                   {QStringLiteral("in_flight_micro_batches"), m.inFlightMicroBatches}});
    const Extras x = extrasOf(sc, e);
    QJsonObject pipeline{{QStringLiteral("stage_forward_s"), e.stageForwardSeconds},
                         {QStringLiteral("stage_backward_s"), e.stageBackwardSeconds},
                         {QStringLiteral("stage_weight_grad_s"), e.stageWeightGradSeconds},
                         {QStringLiteral("p2p_s"), e.p2pSecondsPerTransfer},
                         {QStringLiteral("boundary_bytes"), e.ppBoundaryBytes},
                         {QStringLiteral("transfer_bytes_per_step"), e.ppTransferBytesPerStep},
                         {QStringLiteral("stashed_boundary_bytes"), e.ppStashedBoundaryBytes},
                         {QStringLiteral("bandwidth_to_hide_transfers_bytes_per_s"), x.p2pBytesPerSecondForCompute}};
    if (sc.plan.pp > 1) {
        pipeline.insert(QStringLiteral("micro_batches_for_80pct"), double(x.microBatchesFor80));
        pipeline.insert(QStringLiteral("max_stages_for_80pct"), x.maxStagesFor80);
    }
    o.insert(QStringLiteral("pipeline"), pipeline);
    if (tr.offloadLayers > 0)
        o.insert(QStringLiteral("offload"), QJsonObject{{QStringLiteral("layers"), tr.offloadLayers},
                                                        {QStringLiteral("layer_bytes"), e.offloadLayerBytes},
                                                        {QStringLiteral("host_bytes_per_s"), e.hostBytesPerSecond},
                                                        {QStringLiteral("layer_copy_s"), e.offloadLayerSeconds},
                                                        {QStringLiteral("forward_wait_s"), e.offloadForwardStallSeconds},
                                                        {QStringLiteral("backward_wait_s"), e.offloadBackwardStallSeconds}});
    o.insert(QStringLiteral("tensor_parallel"), QJsonObject{{QStringLiteral("bytes_per_collective"), e.tpBytesPerCollective},
                                                            {QStringLiteral("collectives_per_layer"), e.tpCollectivesPerLayer},
                                                            {QStringLiteral("algorithm"), QLatin1String(nameOf(e.tpAlgorithm))},
                                                            {QStringLiteral("protocol"), QLatin1String(nameOf(e.tpProtocol))}});
    o.insert(QStringLiteral("data_parallel"), QJsonObject{{QStringLiteral("buckets"), e.dpBuckets},
                                                          {QStringLiteral("bucket_s"), e.dpBucketSeconds},
                                                          {QStringLiteral("algorithm"), QLatin1String(nameOf(e.dpAlgorithm))},
                                                          {QStringLiteral("protocol"), QLatin1String(nameOf(e.dpProtocol))},
                                                          {QStringLiteral("exposed_before_forward_s"), e.dpLeadSeconds},
                                                          {QStringLiteral("exposed_in_micro_batches_s"), e.dpPerMicroExposedSeconds},
                                                          {QStringLiteral("exposed_after_backward_s"), e.dpTailSeconds},
                                                          {QStringLiteral("compute_slowed_s"), e.dpInterferenceSeconds}});
    QJsonObject requirements{{QStringLiteral("tier"), QString::fromStdString(x.bandwidthForCommLeCompute.tier)},
                             {QStringLiteral("reachable"), x.bandwidthForCommLeCompute.reachable}};
    if (x.bandwidthForCommLeCompute.reachable)
        requirements.insert(QStringLiteral("bandwidth_for_comm_le_compute_bytes_per_s"),
                            x.bandwidthForCommLeCompute.bytesPerSecond);
    else
        requirements.insert(QStringLiteral("reason"), QString::fromStdString(x.bandwidthForCommLeCompute.reason));
    o.insert(QStringLiteral("requirements"), requirements);
    QJsonArray warnings;
    for (int i = 0; i < e.warningCount; ++i) {
        const Warning &w = e.warnings[size_t(i)];
        const WarningText text = describe(w, sc);
        QJsonArray changes;
        for (int c = 0; c < w.changeCount; ++c)
            changes.append(QJsonObject{{QStringLiteral("key"), QLatin1String(fieldInfo(w.changes[size_t(c)].field).key)},
                                       {QStringLiteral("value"), w.changes[size_t(c)].value}});
        warnings.append(QJsonObject{{QStringLiteral("code"), QString::fromStdString(text.code)},
                                    {QStringLiteral("message"), QString::fromStdString(text.message)},
                                    {QStringLiteral("recommendation"), QString::fromStdString(text.recommendation)},
                                    {QStringLiteral("changes"), changes}});
    }
    // Cost, energy and goodput (model/economics.h): unit-suffixed keys, documented in the README.
    const Economics x2 = economics(sc, e);
    if (x2.valid) {
        const Cost &c = x2.cost;
        o.insert(QStringLiteral("cost"), QJsonObject{{QStringLiteral("price_per_gpu_hour_usd"), c.pricePerGpuHour},
                                                     {QStringLiteral("gpu_hours"), c.gpuHours},
                                                     {QStringLiteral("total_usd"), c.totalUsd},
                                                     {QStringLiteral("per_million_tokens_usd"), c.perMillionTokensUsd}});
        const Energy &en = x2.energy;
        o.insert(QStringLiteral("energy"), QJsonObject{{QStringLiteral("gpu_w"), en.gpuWatts},
                                                       {QStringLiteral("it_kw"), en.itKilowatts},
                                                       {QStringLiteral("facility_mw"), en.facilityMegawatts},
                                                       {QStringLiteral("energy_mwh"), en.energyMegawattHours},
                                                       {QStringLiteral("emissions_t_co2"), en.emissionsTonnesCo2}});
        const Goodput &g = x2.goodput;
        o.insert(QStringLiteral("goodput"), QJsonObject{{QStringLiteral("failures_per_gpu_hour"), g.failuresPerGpuHour},
                                                        {QStringLiteral("job_mtbf_s"), g.jobMtbfSeconds},
                                                        {QStringLiteral("checkpoint_bytes"), g.checkpointBytes},
                                                        {QStringLiteral("checkpoint_write_s"), g.checkpointWriteSeconds},
                                                        {QStringLiteral("restore_s"), g.restoreSeconds},
                                                        {QStringLiteral("restart_s"), g.restartSeconds},
                                                        {QStringLiteral("checkpoint_interval_s"), g.checkpointIntervalSeconds},
                                                        {QStringLiteral("interruptions"), g.interruptions},
                                                        {QStringLiteral("effective_fraction"), g.effectiveFraction},
                                                        {QStringLiteral("train_time_s"), g.trainSeconds},
                                                        {QStringLiteral("train_time_p90_s"), g.trainSecondsP90}});
    } else {
        // Cost, energy and goodput cannot be given (failures faster than checkpoints can save
        // work): say so under the same keys' place rather than leave them out without a word.
        o.insert(QStringLiteral("economics_error"), QJsonObject{{QStringLiteral("key"), QString::fromStdString(x2.problem.field)},
                                                                {QStringLiteral("message"), QString::fromStdString(x2.problem.message)}});
    }
    o.insert(QStringLiteral("warnings"), warnings);
    return o;
}

QString evaluationCsv(const Evaluation &e)
{
    QString out = QStringLiteral("key,value,unit\n");
    if (!e.feasible)
        return out + QStringLiteral("error,\"%1: %2\",\n").arg(QString::fromStdString(e.problem.field),
                                                            QString::fromStdString(e.problem.message).replace(QLatin1Char('"'), QStringLiteral("\"\"")));
    for (const ReportRow &r : evaluationRows(e))
        out += std::isnan(r.value) ? QStringLiteral("%1,,%2\n").arg(r.key, r.unit)
                                   : QStringLiteral("%1,%2,%3\n").arg(r.key).arg(r.value, 0, 'g', 10).arg(r.unit);
    out += QStringLiteral("fits_in_memory,%1,\n").arg(e.memory.fits ? 1 : 0);
    return out;
}

QString evaluationText(const Scenario &sc, const Evaluation &e, const QString &name, const QStringList &notes)
{
    QString out;
    if (!name.isEmpty())
        out += name + QLatin1Char('\n');
    for (const QString &n : notes)
        out += QStringLiteral("note: ") + n + QLatin1Char('\n');
    if (!e.feasible)
        return out + QStringLiteral("infeasible: %1: %2\n").arg(QString::fromStdString(e.problem.field),
                                                               QString::fromStdString(e.problem.message));
    const Breakdown &b = e.breakdown;
    auto line = [&](const QString &label, const QString &value) {
        out += QStringLiteral("  %1 %2\n").arg(label + QLatin1Char(':'), -34).arg(value);
    };
    out += QStringLiteral("Step time breakdown\n");
    line(QStringLiteral("compute"), fmt::seconds(b.computeSeconds));
    line(QStringLiteral("TP comm (exposed / total)"), fmt::seconds(b.tpCommExposedSeconds) + QStringLiteral(" / ") + fmt::seconds(b.tpCommSeconds));
    line(QStringLiteral("CP comm (exposed / total)"),
         fmt::seconds(b.cpCommExposedSeconds) + QStringLiteral(" / ") + fmt::seconds(b.cpCommSeconds)
             + (sc.plan.cp > 1 ? QStringLiteral(" (%1)").arg(QLatin1String(nameOf(sc.plan.cpComm))) : QString()));
    if (sc.workload.experts > 0)
        line(QStringLiteral("EP all-to-all (exposed / total)"), fmt::seconds(b.epCommExposedSeconds) + QStringLiteral(" / ") + fmt::seconds(b.epCommSeconds));
    line(QStringLiteral("pipeline bubble"), fmt::seconds(b.ppBubbleSeconds));
    line(QStringLiteral("pipeline p2p (exposed / total)"), fmt::seconds(b.ppP2pExposedSeconds) + QStringLiteral(" / ") + fmt::seconds(b.ppP2pSeconds));
    line(QStringLiteral("DP sync (exposed / total)"), fmt::seconds(b.dpCommExposedSeconds) + QStringLiteral(" / ") + fmt::seconds(b.dpCommSeconds));
    line(QStringLiteral("optimizer"), fmt::seconds(b.optimizerSeconds));
    if (sc.training.offloadLayers > 0)
        line(QStringLiteral("activation offload wait"), fmt::seconds(b.offloadExposedSeconds));
    line(QStringLiteral("straggler allowance"), fmt::seconds(b.stragglerSeconds));
    line(QStringLiteral("step (mean / median / p99)"), fmt::seconds(b.stepSeconds) + QStringLiteral(" / ") + fmt::seconds(e.stepMedianSeconds)
                                                           + QStringLiteral(" / ") + fmt::seconds(e.stepP99Seconds));
    out += QStringLiteral("Throughput\n");
    if (e.flopsApplicable) {
        line(QStringLiteral("MFU (causal / full s^2 counted)"), fmt::percent(e.mfu) + QStringLiteral(" / ") + fmt::percent(e.mfuFullAttention));
        line(QStringLiteral("HFU (hardware FLOPs)"), fmt::percent(e.hfu));
        line(QStringLiteral("model FLOP/s per GPU"), fmt::flops(e.modelFlopsPerSecondPerGpu));
        line(QStringLiteral("hardware FLOP/s per GPU (Eq. 3)"), fmt::flops(e.hardwareFlopsPerSecondPerGpu));
    } else {
        line(QStringLiteral("MFU, HFU, FLOP/s"), QStringLiteral("not applicable (compute_time is given)"));
    }
    line(QStringLiteral("tokens per second"), fmt::count(e.tokensPerSecond));
    line(QStringLiteral("communication share"), fmt::percent(e.communicationFraction));
    line(QStringLiteral("pipeline efficiency"), fmt::percent(e.pipelineEfficiency) + QStringLiteral(" (bubble ") + fmt::percent(e.ppBubbleFraction)
                                                    + QStringLiteral(" of pipeline time, ") + fmt::percent(e.ppBubbleFractionOfIdeal)
                                                    + QStringLiteral(" of ideal)"));
    line(QStringLiteral("time to train"), fmt::duration(e.trainSeconds) + QStringLiteral(", ") + fmt::count(e.gpuHours) + QStringLiteral(" GPU-hours"));
    // What the calendar shows (the app's headline card): failures, restarts and checkpoints added.
    if (const Economics costs = economics(sc, e); costs.valid)
        line(QStringLiteral("with failures and checkpoints"), fmt::duration(costs.goodput.trainSeconds) + QStringLiteral(", ")
                                                                  + fmt::count(costs.cost.gpuHours) + QStringLiteral(" GPU-hours (goodput ")
                                                                  + fmt::percent(costs.goodput.effectiveFraction) + QStringLiteral(")"));
    else if (e.feasible)
        line(QStringLiteral("with failures and checkpoints"), QString::fromStdString(describe(costs.problem)));
    out += QStringLiteral("Sizes\n");
    line(QStringLiteral("parameters"), fmt::count(e.parameters)
                                           + (sc.workload.experts > 0 ? QStringLiteral(" (%1 per token)").arg(fmt::count(e.activeParameters))
                                                                      : QString()));
    line(QStringLiteral("gradient bytes per GPU"), fmt::bytes(e.gradientBytesPerGpu));
    line(QStringLiteral("micro-batches per step"), QString::number(e.microBatches));
    const MemoryBreakdown &m = e.memory;
    out += QStringLiteral("Memory per GPU (%1, fullest stage %2 of %3)\n")
               .arg(QLatin1String(nameOf(e.framework)))
               .arg(m.stage + 1)
               .arg(m.stages);
    line(QStringLiteral("weights"), fmt::memory(m.weightsBytes));
    line(QStringLiteral("gradients"), fmt::memory(m.gradientsBytes));
    line(QStringLiteral("optimizer states"), fmt::memory(m.optimizerBytes));
    line(QStringLiteral("activations"), fmt::memory(m.activationsBytes)
                                             + (m.offloadedBytes > 0 ? QStringLiteral(" (%1 more in host memory)").arg(fmt::memory(m.offloadedBytes))
                                                                     : QString()));
    line(QStringLiteral("logits and loss"), fmt::memory(m.lossBytes));
    line(QStringLiteral("buffers"), fmt::memory(m.buffersBytes));
    line(QStringLiteral("runtime (context, workspaces, allocator)"), fmt::memory(m.runtimeBytes));
    line(QStringLiteral("total / HBM"), fmt::memory(m.totalBytes) + QStringLiteral(" / ") + fmt::memory(m.capacityBytes)
                                            + (m.fits ? QStringLiteral(" (fits)") : QStringLiteral(" (DOES NOT FIT)")));
    const Extras x = extrasOf(sc, e);
    out += QStringLiteral("Requirements\n");
    if (x.bandwidthForCommLeCompute.reachable)
        line(QStringLiteral("bandwidth for comm <= compute"), fmt::bandwidth(x.bandwidthForCommLeCompute.bytesPerSecond)
                                                                  + QStringLiteral(" per GPU, ") + QString::fromStdString(x.bandwidthForCommLeCompute.tier));
    else
        line(QStringLiteral("bandwidth for comm <= compute"), QString::fromStdString(x.bandwidthForCommLeCompute.reason));
    if (sc.plan.pp > 1) {
        line(QStringLiteral("boundary activation"), fmt::bytes(e.ppBoundaryBytes));
        line(QStringLiteral("per boundary per step"), fmt::bytes(e.ppTransferBytesPerStep));
        line(QStringLiteral("to move it within compute"), fmt::bandwidth(x.p2pBytesPerSecondForCompute));
        line(QStringLiteral("micro-batches for 80% efficiency"), QString::number(x.microBatchesFor80));
        line(QStringLiteral("max stages for 80% at this m"), QString::number(x.maxStagesFor80));
    }
    if (e.warningCount) {
        out += QStringLiteral("Warnings\n");
        for (int i = 0; i < e.warningCount; ++i) {
            const WarningText t = describe(e.warnings[size_t(i)], sc);
            out += QStringLiteral("  [%1] %2\n    -> %3\n").arg(QString::fromStdString(t.code), QString::fromStdString(t.message),
                                                             QString::fromStdString(t.recommendation));
        }
    }
    return out;
}

} // namespace ts
