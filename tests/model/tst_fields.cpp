// SPDX-License-Identifier: MIT
// The input table (model/fields.h): one row per field, keys that resolve, values that round-trip,
// the consistency rule, and the words of undo steps and fixes.
#include "evaluate.h"
#include "fields.h"
#include "fixtures.h"

#include <QtTest>

using namespace ts;

namespace {
Scenario base() { return fixtures::gpt13bOn64H100(); }   // TP 8, PP 2, DP 4 on 64 GPUs
} // namespace

class TestFields : public QObject
{
    Q_OBJECT
private slots:
    void everyRowIsItsField()
    {
        for (int i = 1; i < int(Field::Count); ++i) {
            const FieldInfo &f = fieldInfo(Field(i));
            QCOMPARE(int(f.field), i);
            QVERIFY2(*f.key && *f.name, f.key);
            QCOMPARE(int(fieldForKey(f.key)), i);
            QVERIFY2(f.siPerDisplay > 0 && f.minimum <= f.maximum, f.key);
        }
        QCOMPARE(fieldForKey("plan.nonsense"), Field::None);
    }

    void valuesRoundTrip()
    {
        // Setting a field to the value it has changes nothing (Parameters derives a shape: skipped).
        const Scenario s = base();
        for (int i = 1; i < int(Field::Count); ++i) {
            if (Field(i) == Field::Parameters)
                continue;
            const FieldEdit r = withField(s, Field(i), fieldValue(s, Field(i)));
            QVERIFY2(r.scenario == s, fieldInfo(Field(i)).key);
        }
        // ... and a new value reads back.
        QCOMPARE(fieldValue(withField(s, Field::InterBandwidth, 50e9).scenario, Field::InterBandwidth), 50e9);
        QCOMPARE(fieldValue(withField(s, Field::Bucket, kFrameworkBucket).scenario, Field::Bucket), kFrameworkBucket);
        QCOMPARE(fieldValue(withField(s, Field::Schedule, int(Schedule::Interleaved)).scenario, Field::Schedule),
                 double(int(Schedule::Interleaved)));
    }

    void degreesKeepTheGpus()
    {
        Scenario s = withField(base(), Field::Tp, 4).scenario;   // 64 GPUs: DP 4 -> 8
        QCOMPARE(s.plan.dp, 8);
        QCOMPARE(s.cluster.gpus, 64);
        s = withField(s, Field::Dp, 4).scenario;   // DP moves the GPU count
        QCOMPARE(s.cluster.gpus, 32);
        s = withField(s, Field::Cp, 3).scenario;   // 32 / (4 x 2 x 3) does not divide: DP stays, the model says why
        QCOMPARE(s.plan.dp, 4);
        QVERIFY(validate(s).has_value());
        const FieldEdit bad = withField(base(), Field::Parameters, 1);   // out of range: unchanged, with a note
        QVERIFY(bad.scenario == base());
        QVERIFY(bad.note.find("workload.parameters") != std::string::npos);
        const FieldEdit derived = withField(base(), Field::Parameters, 7e9);
        QVERIFY(!derived.note.empty());
        QVERIFY(std::abs(fieldValue(derived.scenario, Field::Parameters) / 7e9 - 1) < 0.1);
    }

    // Fields that only mean something beside another carry it along, and say so.
    void coupledFieldsStayValid()
    {
        FieldEdit r = withField(base(), Field::RecomputeLayers, 4);
        QCOMPARE(r.scenario.training.recompute, Recompute::Full);
        QVERIFY(r.note.find("training.recompute") != std::string::npos);
        QVERIFY(!validate(r.scenario).has_value());
        r = withField(r.scenario, Field::Recompute, int(Recompute::Selective));
        QCOMPARE(r.scenario.training.recomputeLayers, 0);
        QVERIFY(r.note.find("recompute_layers") != std::string::npos);
        QVERIFY(!validate(r.scenario).has_value());
        r = withField(base(), Field::Fp8Params, 1);
        QCOMPARE(r.scenario.training.precision, Precision::Fp8);
        QVERIFY(!validate(r.scenario).has_value());
        r = withField(r.scenario, Field::Precision, int(Precision::Bf16));
        QVERIFY(!r.scenario.training.fp8Params);
        QVERIFY(!validate(r.scenario).has_value());
        // FP8 attention runs under an FP8 recipe: turning it on turns FP8 on; leaving FP8 turns it off.
        r = withField(base(), Field::Fp8Attention, 1);
        QCOMPARE(r.scenario.training.precision, Precision::Fp8);
        QVERIFY(r.scenario.training.fp8Attention);
        QVERIFY(r.note.find("training.precision") != std::string::npos);
        r = withField(r.scenario, Field::Precision, int(Precision::Bf16));
        QVERIFY(!r.scenario.training.fp8Attention);
        QVERIFY(r.note.find("training.fp8_attention") != std::string::npos);
        QVERIFY(!validate(r.scenario).has_value());
        // A scaling recipe applies to FP8 GEMMs: choosing one turns FP8 on, and leaving FP8 keeps it.
        r = withField(base(), Field::Fp8Recipe, int(Fp8Recipe::Tensorwise));
        QCOMPARE(r.scenario.training.precision, Precision::Fp8);
        QVERIFY(r.note.find("training.precision") != std::string::npos);
        QVERIFY(!validate(r.scenario).has_value());
        r = withField(r.scenario, Field::Precision, int(Precision::Bf16));
        QCOMPARE(r.scenario.training.fp8Recipe, Fp8Recipe::Tensorwise);
        QVERIFY(!validate(r.scenario).has_value());
        // NVFP4 turns FP8 weights off (4-bit parameter gathers are not modelled).
        Scenario fp4 = base();
        fp4.cluster.gpu.peakFlops4 = 9000e12;
        r = withField(withField(fp4, Field::Fp8Params, 1).scenario, Field::Fp8Recipe, int(Fp8Recipe::Nvfp4));
        QVERIFY(!r.scenario.training.fp8Params);
        QVERIFY(r.note.find("training.fp8_params") != std::string::npos);
        QVERIFY2(!validate(r.scenario).has_value(), validate(r.scenario)->message.c_str());
        // Megatron's recompute modules are read under selective recompute: a module set turns it on
        // from none or full, and the list stays when recompute moves away (inert there).
        r = withField(withField(base(), Field::RecomputeLayers, 4).scenario, Field::RecomputeModules,
                      double(kRecomputeCoreAttn | kRecomputeMlp));
        QCOMPARE(r.scenario.training.recompute, Recompute::Selective);
        QCOMPARE(r.scenario.training.recomputeLayers, 0);
        QCOMPARE(r.scenario.training.recomputeModules, unsigned(kRecomputeCoreAttn | kRecomputeMlp));
        QVERIFY(r.note.find("training.recompute set to selective") != std::string::npos);
        QVERIFY(!validate(r.scenario).has_value());
        r = withField(r.scenario, Field::Recompute, int(Recompute::None));
        QCOMPARE(r.scenario.training.recomputeModules, unsigned(kRecomputeCoreAttn | kRecomputeMlp));
        QVERIFY(!validate(r.scenario).has_value());
        QCOMPARE(fieldValue(r.scenario, Field::RecomputeModules), double(kRecomputeCoreAttn | kRecomputeMlp));
    }

    void words()
    {
        QCOMPARE(QString::fromStdString(describeFieldChange(Field::Tp, 8)), QStringLiteral("Set TP to 8"));
        QCOMPARE(QString::fromStdString(describeFieldChange(Field::SequenceParallel, 1)),
                 QStringLiteral("Turn sequence parallel on"));
        QCOMPARE(QString::fromStdString(describeFieldChange(Field::Bucket, 25e6)), QStringLiteral("Set DP bucket to 25 MB"));
        QCOMPARE(QString::fromStdString(describeFieldChange(Field::Schedule, int(Schedule::OneFOneB))),
                 QStringLiteral("Set pipeline schedule to 1F1B"));
        QCOMPARE(QString::fromStdString(formatFieldValue(Field::InterLatency, 5e-6)), QStringLiteral("5 µs"));
        QCOMPARE(QString::fromStdString(formatFieldValue(Field::Transport, 0)), QStringLiteral("TCP"));
        QCOMPARE(QString::fromStdString(formatFieldValue(Field::Oversubscription, 2)), QStringLiteral("2:1"));
        QCOMPARE(QString::fromStdString(describeFieldChange(Field::RecomputeModules, double(kRecomputeMlaUpProj | kRecomputeMlp))),
                 QStringLiteral("Set recomputed modules to mla_up_proj, mlp"));
        QCOMPARE(QString::fromStdString(formatFieldValue(Field::RecomputeModules, 0)), QStringLiteral("none"));
        QCOMPARE(QString::fromStdString(recomputeModulesText(kRecomputeAllModules)),
                 QStringLiteral("core_attn, moe_act, layernorm, mla_up_proj, mlp, moe, shared_experts"));
        // The kernel and framework pickers speak in words, in their enums' order.
        QCOMPARE(QString::fromStdString(describeFieldChange(Field::Framework, int(Framework::Fsdp))),
                 QStringLiteral("Set framework to PyTorch FSDP"));
        QCOMPARE(QString::fromStdString(describeFieldChange(Field::Attention, int(Attention::Flash2))),
                 QStringLiteral("Set attention kernel to FlashAttention-2"));
        QCOMPARE(QString::fromStdString(describeFieldChange(Field::CrossEntropy, int(CrossEntropy::Fused))),
                 QStringLiteral("Set loss kernel to fused on 16-bit logits"));
        QCOMPARE(QString::fromStdString(describeFieldChange(Field::CpComm, int(CpComm::A2a))),
                 QStringLiteral("Set CP communication to all-to-all (Ulysses)"));
        QCOMPARE(withField(base(), Field::CpComm, int(CpComm::AllGather)).scenario.plan.cpComm, CpComm::AllGather);
        const Scenario fsdp = withField(base(), Field::Framework, int(Framework::Fsdp)).scenario;
        QCOMPARE(fsdp.plan.framework, Framework::Fsdp);
        QCOMPARE(withField(base(), Field::Attention, int(Attention::Flash2)).scenario.workload.attention, Attention::Flash2);
    }
};

QTEST_APPLESS_MAIN(TestFields)
#include "tst_fields.moc"
