#include "models/accuracy/divergence.h"
#include "models/accuracy/dumpmatching.h"

#include <QtTest>

using namespace runlens::models::accuracy;

namespace {

/// A side from op names and their rows `suffix:shape` ("input.0:4x3").
struct SideBuilder
{
    DumpSide side;
    SideBuilder& op(const QString& name, const QStringList& rows)
    {
        const int index = int(side.ops.size());
        side.ops << name;
        for (const QString& spec : rows) {
            SideRow row;
            const QString suffix = spec.section(QLatin1Char(':'), 0, 0);
            row.name = name + QLatin1Char('.') + suffix;
            row.op = name;
            row.opIndex = index;
            row.kind = suffix.startsWith(QLatin1String("output")) ? RowKind::Output
                : suffix.startsWith(QLatin1String("parameters"))  ? RowKind::Parameter
                                                                  : RowKind::Input;
            for (const QString& d : spec.section(QLatin1Char(':'), 1).split(QLatin1Char('x'), Qt::SkipEmptyParts))
                row.shape.push_back(d.toLongLong());
            row.hasShape = true;
            side.rows << row;
        }
        return *this;
    }
};

QStringList pairNames(const DumpSide& bench, const DumpSide& target, const MatchResult& m)
{
    QStringList out;
    for (const MatchedPair& p : m.pairs)
        out << target.rows[p.target].name + QStringLiteral(" -> ") + bench.rows[p.bench].name;
    return out;
}

} // namespace

class TestDumpMatching : public QObject
{
    Q_OBJECT

private slots:
    void identicalNames()
    {
        const DumpSide b = SideBuilder()
                               .op(QStringLiteral("Functional.conv2d.0.forward"), { "input.0:1x3", "output.0:1x8" })
                               .op(QStringLiteral("Functional.conv2d.0.backward"), { "input.0:1x8", "output.0:1x3" })
                               .side;
        const DumpSide t = b;
        const MatchResult m = matchSides(b, t);
        QCOMPARE(m.pairs.size(), 4);
        for (const MatchedPair& p : m.pairs) {
            QCOMPARE(p.bench, p.target);
            QCOMPARE(p.rule, MatchRule::Exact);
        }
        QVERIFY(m.unmatchedBench.isEmpty());
        QVERIFY(m.unmatchedTarget.isEmpty());
    }

    void forwardAndBackwardStayApart()
    {
        const DumpSide b
            = SideBuilder().op(QStringLiteral("Functional.relu.0.forward"), { "input.0:4", "output.0:4" }).side;
        const DumpSide t
            = SideBuilder().op(QStringLiteral("Functional.relu.0.backward"), { "input.0:4", "output.0:4" }).side;
        const MatchResult m = matchSides(b, t);
        QVERIFY(m.pairs.isEmpty());
        QCOMPARE(m.unmatchedBench.size(), 2);
        QCOMPARE(m.unmatchedTarget.size(), 2);
    }

    // One extra call on the target shifts every later counter: the calls are aligned by their shapes, the
    // extra one is listed unmatched.
    void counterShiftIsAlignedByShapes()
    {
        const DumpSide b = SideBuilder()
                               .op(QStringLiteral("Tensor.__add__.0.forward"), { "input.0:2", "output.0:2" })
                               .op(QStringLiteral("Tensor.__add__.1.forward"), { "input.0:3", "output.0:3" })
                               .op(QStringLiteral("Tensor.__add__.2.forward"), { "input.0:5", "output.0:5" })
                               .side;
        const DumpSide t = SideBuilder()
                               .op(QStringLiteral("Tensor.__add__.0.forward"), { "input.0:7", "output.0:7" })
                               .op(QStringLiteral("Tensor.__add__.1.forward"), { "input.0:2", "output.0:2" })
                               .op(QStringLiteral("Tensor.__add__.2.forward"), { "input.0:3", "output.0:3" })
                               .op(QStringLiteral("Tensor.__add__.3.forward"), { "input.0:5", "output.0:5" })
                               .side;
        const MatchResult m = matchSides(b, t);
        QCOMPARE(pairNames(b, t, m),
                 QStringList({ "Tensor.__add__.1.forward.input.0 -> Tensor.__add__.0.forward.input.0",
                               "Tensor.__add__.1.forward.output.0 -> Tensor.__add__.0.forward.output.0",
                               "Tensor.__add__.2.forward.input.0 -> Tensor.__add__.1.forward.input.0",
                               "Tensor.__add__.2.forward.output.0 -> Tensor.__add__.1.forward.output.0",
                               "Tensor.__add__.3.forward.input.0 -> Tensor.__add__.2.forward.input.0",
                               "Tensor.__add__.3.forward.output.0 -> Tensor.__add__.2.forward.output.0" }));
        for (const MatchedPair& p : m.pairs)
            QCOMPARE(p.rule, MatchRule::Fuzzy);
        QCOMPARE(m.unmatchedTarget, QList<int>({ 0, 1 }));
        QVERIFY(m.unmatchedBench.isEmpty());
    }

    // The same name with other shapes is another call: both are listed, not paired. An argument only one side
    // records (a framework's extra keyword) does not keep calls apart.
    void shapesDecideWhetherCallsAreAlike()
    {
        const DumpSide b = SideBuilder()
                               .op(QStringLiteral("Tensor.__add__.0.forward"), { "input.0:", "output.0:" })
                               .op(QStringLiteral("Module.attn.Attention.forward.0"),
                                   { "input.0:2x4", "input.inference_params:", "output.0:2x4" })
                               .side;
        const DumpSide t = SideBuilder()
                               .op(QStringLiteral("Tensor.__add__.0.forward"), { "input.0:5x2", "output.0:5x2" })
                               .op(QStringLiteral("Module.attn.Attention.forward.0"), { "input.0:2x4", "output.0:2x4" })
                               .side;
        const MatchResult m = matchSides(b, t);
        QCOMPARE(
            pairNames(b, t, m),
            QStringList({ "Module.attn.Attention.forward.0.input.0 -> Module.attn.Attention.forward.0.input.0",
                          "Module.attn.Attention.forward.0.output.0 -> Module.attn.Attention.forward.0.output.0" }));
        QCOMPARE(m.unmatchedTarget, QList<int>({ 0, 1 }));
        QCOMPARE(m.unmatchedBench, QList<int>({ 0, 1, 3 }));
    }

    void extraBenchCallIsSkipped()
    {
        const DumpSide b = SideBuilder()
                               .op(QStringLiteral("Module.fc.Linear.forward.0"), { "input.0:9", "output.0:9" })
                               .op(QStringLiteral("Module.fc.Linear.forward.1"), { "input.0:4", "output.0:4" })
                               .side;
        const DumpSide t
            = SideBuilder().op(QStringLiteral("Module.fc.Linear.forward.0"), { "input.0:4", "output.0:4" }).side;
        const MatchResult m = matchSides(b, t);
        QCOMPARE(m.pairs.size(), 2);
        QCOMPARE(b.rows[m.pairs[0].bench].op, QStringLiteral("Module.fc.Linear.forward.1"));
        QCOMPARE(m.unmatchedBench, QList<int>({ 0, 1 }));
    }

    void mappingRenamesModulesApisAndRows()
    {
        const DumpSide b
            = SideBuilder()
                  .op(QStringLiteral("Module.model.layers.0.self_attention.Attention.forward.0"),
                      { "input.0:2x4", "output.0:2x4" })
                  .op(QStringLiteral("NPU.npu_fusion_attention.0.forward"), { "input.0:2x4", "output.0:2x4" })
                  .op(QStringLiteral("Functional.linear.3.forward"), { "output.0:2" })
                  .side;
        const DumpSide t
            = SideBuilder()
                  .op(QStringLiteral("Module.net.layers.0.attention.Attention.forward.0"),
                      { "input.0:2x4", "output.0:2x4" })
                  .op(QStringLiteral("Functional.fused_attention.0.forward"), { "input.0:2x4", "output.0:2x4" })
                  .op(QStringLiteral("Functional.dense.9.forward"), { "output.0:2" })
                  .side;
        QString error;
        const std::optional<NameMapping> mapping = NameMapping::parse(
            "modules:\n  net: model\n  attention: self_attention\napis:\n  Functional.fused_attention: "
            "NPU.npu_fusion_attention\n# a row by its whole name\nFunctional.dense.9.forward.output.0: "
            "Functional.linear.3.forward.output.0\n",
            &error);
        QVERIFY2(mapping, qPrintable(error));
        const MatchResult m = matchSides(b, t, *mapping);
        QCOMPARE(m.pairs.size(), 5);
        for (const MatchedPair& p : m.pairs)
            QCOMPARE(p.rule, MatchRule::Mapped);
        QVERIFY(m.unmatchedBench.isEmpty());
        QVERIFY(m.unmatchedTarget.isEmpty());

        const std::optional<NameMapping> json = NameMapping::parse(
            R"({"modules": {"net": "model", "attention": "self_attention"},
                "apis": {"Functional.fused_attention": "NPU.npu_fusion_attention"},
                "rows": {"Functional.dense.9.forward.output.0": "Functional.linear.3.forward.output.0"}})",
            &error);
        QVERIFY2(json, qPrintable(error));
        QCOMPARE(matchSides(b, t, *json).pairs.size(), 5);
        QVERIFY(!NameMapping::parse("weird:\n  a: b\n", &error));
        QVERIFY(!error.isEmpty());
        QVERIFY(!NameMapping::parse("{ not json", &error));
    }

    void mindSporeApisAndCellsMapToPyTorch()
    {
        DumpSide b = SideBuilder()
                         .op(QStringLiteral("Torch.cos.0.forward"), { "input.0:4", "output.0:4" })
                         .op(QStringLiteral("Module.fc.Linear.forward.0"), { "output.0:4" })
                         .side;
        b.framework = DumpFramework::PyTorch;
        DumpSide t = SideBuilder()
                         .op(QStringLiteral("Mint.cos.0.forward"), { "input.0:4", "output.0:4" })
                         .op(QStringLiteral("Cell.fc.Dense.forward.0"), { "output.0:4" })
                         .side;
        t.framework = DumpFramework::MindSpore;
        NameMapping classes;
        classes.classes.insert(QStringLiteral("Dense"), QStringLiteral("Linear"));
        const MatchResult m = matchSides(b, t, classes);
        QCOMPARE(m.pairs.size(), 3);
        // msprobe's built-in table: Functional.* and Tensor.* pairs; a fused kernel needs a mapping file.
        QCOMPARE(mapOpName(QStringLiteral("Functional.dense.3.forward"), {}, true),
                 QStringLiteral("Functional.linear.3.forward"));
        QCOMPARE(mapOpName(QStringLiteral("Primitive.norm.RmsNorm.0.forward"), {}, true),
                 QStringLiteral("Primitive.norm.RmsNorm.0.forward"));
        NameMapping rms;
        rms.apis.insert(QStringLiteral("Primitive.norm.RmsNorm"), QStringLiteral("NPU.npu_rms_norm"));
        QCOMPARE(mapOpName(QStringLiteral("Primitive.norm.RmsNorm.0.forward"), rms, true),
                 QStringLiteral("NPU.npu_rms_norm.0.forward"));
        QCOMPARE(mapOpName(QStringLiteral("MintFunctional.relu.2.backward"), {}, true),
                 QStringLiteral("Functional.relu.2.backward"));
        // Within one framework the built-in table is not applied.
        QCOMPARE(mapOpName(QStringLiteral("Mint.cos.0.forward"), {}, false), QStringLiteral("Mint.cos.0.forward"));
    }

    // msprobe's api_mapping file: a list of entries, each API's argument slots paired by position in the
    // lists; a slot the lists leave out never matches.
    void msprobeApiMappingList()
    {
        DumpSide b = SideBuilder()
                         .op(QStringLiteral("Torch.abs.0.forward"), { "input.0:4", "input.1:2", "output.0:4" })
                         .op(QStringLiteral("NPU.npu_fusion_attention.0.forward"),
                             { "input.0:8", "input.1:8", "output.0:8", "output.1:3" })
                         .side;
        b.framework = DumpFramework::PyTorch;
        DumpSide t = SideBuilder()
                         .op(QStringLiteral("Functional.abs.0.forward"),
                             { "input.0:4", "input.1:9", "input.2:2", "output.0:4" })
                         .op(QStringLiteral("Functional.flash_attention_score.0.forward"),
                             { "input.0:8", "input.1:8", "output.0:8", "output.1:3" })
                         .side;
        t.framework = DumpFramework::MindSpore;
        const QByteArray yaml = "# msprobe api_mapping\n"
                                "- ms_api: Functional.abs\n"
                                "  pt_api: Torch.abs\n"
                                "  ms_args: [0, 2]\n"
                                "  pt_args: [0, 1]\n"
                                "  ms_outputs:\n"
                                "  - 0\n"
                                "  pt_outputs:\n"
                                "  - 0\n"
                                "- ms_api: Functional.flash_attention_score\n"
                                "  pt_api: NPU.npu_fusion_attention\n"
                                "  ms_outputs: [0]\n"
                                "  pt_outputs: [0]\n";
        QString error;
        const std::optional<NameMapping> mapping = NameMapping::parse(yaml, &error);
        QVERIFY2(mapping, qPrintable(error));
        QCOMPARE(mapping->apis.value(QStringLiteral("Functional.abs")), QStringLiteral("Torch.abs"));
        const MatchResult m = matchSides(b, t, *mapping);
        QCOMPARE(pairNames(b, t, m),
                 QStringList({ "Functional.abs.0.forward.input.0 -> Torch.abs.0.forward.input.0",
                               "Functional.abs.0.forward.input.2 -> Torch.abs.0.forward.input.1",
                               "Functional.abs.0.forward.output.0 -> Torch.abs.0.forward.output.0",
                               "Functional.flash_attention_score.0.forward.input.0 -> "
                               "NPU.npu_fusion_attention.0.forward.input.0",
                               "Functional.flash_attention_score.0.forward.input.1 -> "
                               "NPU.npu_fusion_attention.0.forward.input.1",
                               "Functional.flash_attention_score.0.forward.output.0 -> "
                               "NPU.npu_fusion_attention.0.forward.output.0" }));
        // input.1 is not in ms_args; output.1 not in ms_outputs.
        QCOMPARE(m.unmatchedTarget.size(), 2);

        // One entry at the top level, as msprobe's documentation writes it; the JSON list form.
        const std::optional<NameMapping> single = NameMapping::parse(
            "ms_api: Functional.abs\npt_api: Torch.abs\nms_args:\n- 0\n- 2\npt_args:\n- 0\n- 1\n", &error);
        QVERIFY2(single, qPrintable(error));
        // abs: arguments 0 and 2 and output 0; flash attention is not in msprobe's built-in table.
        QCOMPARE(matchSides(b, t, *single).pairs.size(), 3);
        const std::optional<NameMapping> json = NameMapping::parse(
            R"([{"ms_api": "Functional.abs", "pt_api": "Torch.abs", "ms_args": [0, 2], "pt_args": [0, 1]}])", &error);
        QVERIFY2(json, qPrintable(error));
        QCOMPARE(json->apiArguments.value(QStringLiteral("Functional.abs")).inputs->value(QStringLiteral("2")),
                 QStringLiteral("1"));
    }

    void msprobeApiMappingErrors_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("says");
        QTest::newRow("lengths differ") << QByteArray(
            "- ms_api: A.a\n  pt_api: B.b\n  ms_args: [0, 1]\n  pt_args: [0]\n")
                                        << "differ in length";
        QTest::newRow("no pt_api") << QByteArray("- ms_api: A.a\n  ms_args: [0]\n  pt_args: [0]\n") << "pt_api";
        QTest::newRow("unknown key") << QByteArray("- ms_api: A.a\n  pt_api: B.b\n  ms_argz: [0]\n") << "ms_argz";
        QTest::newRow("key twice") << QByteArray("- ms_api: A.a\n  ms_api: B.b\n") << "twice";
        QTest::newRow("bad slot") << QByteArray(
            "- ms_api: A.a\n  pt_api: B.b\n  ms_args: [0, $(rm)]\n  pt_args: [0, 1]\n")
                                  << "argument slots";
        QTest::newRow("bad list item") << QByteArray("- ms_api: A.a\n  pt_api: B.b\n  ms_args:\n  - ../../x\n")
                                       << "not an argument slot";
        QTest::newRow("no colon") << QByteArray("- ms_api A.a\n") << "key: value";
        QTest::newRow("json not object") << QByteArray("[1, 2]") << "not an object";
        QTest::newRow("json nested") << QByteArray(R"([{"ms_api": {"a": 1}}])") << "neither";
        QTest::newRow("garbage") << QByteArray("- \xff\xfe\x00\x01: [[[[", 13) << "api mapping";
    }
    void msprobeApiMappingErrors()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, says);
        QString error;
        QVERIFY(!NameMapping::parse(text, &error));
        QVERIFY2(error.contains(says), qPrintable(error));
    }

    void unmatchedAreListedNotDropped()
    {
        const DumpSide b
            = SideBuilder().op(QStringLiteral("a"), { "output:2" }).op(QStringLiteral("b"), { "output:2" }).side;
        const DumpSide t
            = SideBuilder().op(QStringLiteral("a"), { "output:2" }).op(QStringLiteral("c"), { "output:2" }).side;
        const MatchResult m = matchSides(b, t);
        QCOMPARE(m.pairs.size(), 1);
        QCOMPARE(m.unmatchedBench, QList<int>({ 1 }));
        QCOMPARE(m.unmatchedTarget, QList<int>({ 1 }));
    }

    void naturalOrder()
    {
        QVERIFY(naturalLess(QStringLiteral("layers.2.fc"), QStringLiteral("layers.10.fc")));
        QVERIFY(!naturalLess(QStringLiteral("layers.10"), QStringLiteral("layers.2")));
        QVERIFY(naturalLess(QStringLiteral("a"), QStringLiteral("ab")));
    }

    // The first op whose outputs fail while its inputs pass is where the error is born; later ops only
    // carry it.
    void divergenceFindsWhereTheErrorIsBorn()
    {
        auto row = [](const QString& op, RowKind kind, Verdict v) {
            CompareRow r;
            r.op = op;
            r.name = op + QLatin1Char('.') + rowKindId(kind);
            r.kind = kind;
            r.index = 0;
            r.verdict = v;
            return r;
        };
        QList<CompareRow> rows {
            row("a", RowKind::Input, Verdict::Pass),      row("a", RowKind::Output, Verdict::Pass),
            row("b", RowKind::Input, Verdict::Pass),      row("b", RowKind::Output, Verdict::Warning),
            row("c", RowKind::Input, Verdict::Warning),   row("c", RowKind::Output, Verdict::Error),
            row("x", RowKind::Output, Verdict::Unmatched)
        };
        const std::optional<FirstDivergence> f = findDivergence(rows);
        QVERIFY(f);
        QCOMPARE(f->op, QStringLiteral("b"));
        QCOMPARE(f->row, 3);
        QCOMPARE(f->reason, QStringLiteral("outputs fail while inputs pass"));
        QVERIFY(rows[3].introduced);
        QVERIFY(!rows[5].introduced);
        QVERIFY(rows[5].propagated);
        // Counting errors only, b passes and c's inputs pass: c introduced it.
        for (CompareRow& r : rows)
            r.introduced = r.propagated = false;
        const std::optional<FirstDivergence> errors = findDivergence(rows, Verdict::Error);
        QCOMPARE(errors->op, QStringLiteral("c"));

        // A parameter that differs under passing inputs is born at its op.
        QList<CompareRow> params { row("a", RowKind::Input, Verdict::Pass),
                                   row("a", RowKind::Parameter, Verdict::Error),
                                   row("a", RowKind::Output, Verdict::Warning) };
        QCOMPARE(findDivergence(params)->reason, QStringLiteral("a parameter differs"));

        // Failing from the first input on: born before the dump.
        QList<CompareRow> early { row("a", RowKind::Input, Verdict::Error), row("a", RowKind::Output, Verdict::Error) };
        QCOMPARE(findDivergence(early)->reason, QStringLiteral("inputs already differ"));

        QList<CompareRow> clean { row("a", RowKind::Input, Verdict::Pass), row("a", RowKind::Output, Verdict::Pass) };
        QVERIFY(!findDivergence(clean));
    }
};

QTEST_GUILESS_MAIN(TestDumpMatching)
#include "tst_dumpmatching.moc"
