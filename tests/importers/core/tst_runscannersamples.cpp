// The run scanner on the real sample files of ../shared/samples: each is listed as its kind, in its run.

#include "importers/core/filesniffer.h"
#include "importers/core/runscanner.h"

#include "tests/testutils.h"

#include <QFileInfo>
#include <QtTest>

#include <algorithm>
#include <optional>

using namespace runlens;
using namespace runlens::test;
using namespace runlens::importers;
using namespace runlens::models;

class TestRunScannerSamples : public QObject
{
    Q_OBJECT

private slots:
    void samplesConformance_data();
    void samplesConformance();
    void samplesRunLayouts_data();
    void samplesRunLayouts();

private:
    const RunManifest& samplesManifest(const QString& root);
    std::optional<RunManifest> m_samples;
};

// --- Conformance with the real sample files ----------------------------------------------------------------------

const RunManifest& TestRunScannerSamples::samplesManifest(const QString& root)
{
    if (!m_samples)
        m_samples = RunScanner().scan(root);
    return *m_samples;
}

void TestRunScannerSamples::samplesConformance_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("kind"); // "" = must not be listed
    QTest::addColumn<QString>("run");
    QTest::addColumn<int>("rank");

    struct Row
    {
        const char* path;
        const char* kind;
        const char* run;
        int rank;
    };
    // Runs of the samples root opened whole: event folders are runs as TensorBoard names them; the job folder
    // runs/pytorch_cnn_baseline is one run (its tb/, profiler/, dump/ and graph/ included); the other top
    // folders (traces/, graphs/, profiler/) have artifact names, so they belong to the opened folder's run.
    static const Row rows[] = {
        // TensorBoard events from torch 2.x, TF2 (.v2), stable-baselines3, add_hparams sub-run, add_graph.
        { "summaries/tensorboard/torch2_scalars/events.out.tfevents.1771594466.zyzkings.21024.0", "tensorboard-events",
          "summaries/tensorboard/torch2_scalars", -1 },
        { "summaries/tensorboard/torch2_images/events.out.tfevents.1771595107.zyzkings.11980.0", "tensorboard-events",
          "summaries/tensorboard/torch2_images", -1 },
        { "summaries/tensorboard/torch2_pr_curve/events.out.tfevents.1771596445.zyzkings.30376.0", "tensorboard-events",
          "summaries/tensorboard/torch2_pr_curve", -1 },
        { "summaries/tensorboard/torch2_hparams/events.out.tfevents.1771595857.zyzkings.1216.0", "tensorboard-events",
          "summaries/tensorboard/torch2_hparams", -1 },
        { "summaries/tensorboard/torch2_hparams/events.out.tfevents.1771595857.zyzkings.1216.1", "tensorboard-events",
          "summaries/tensorboard/torch2_hparams", -1 },
        { "summaries/tensorboard/tf2_tensor_scalars/events.out.tfevents.1585499054.Jaakkos-Mac-mini.local.11684.5.v2",
          "tensorboard-events", "summaries/tensorboard/tf2_tensor_scalars", -1 },
        { "summaries/tensorboard/sb3_ppo/events.out.tfevents.1616744700.94ca43182e2d.702.0", "tensorboard-events",
          "summaries/tensorboard/sb3_ppo", -1 },
        { "graphs/torch_add_graph_event/events.out.tfevents.1771596179.zyzkings.9384.0", "tensorboard-events",
          "graphs/torch_add_graph_event", -1 },
        { "runs/pytorch_cnn_baseline/tb/events.out.tfevents.1795321629.vm.1522.0", "tensorboard-events",
          "runs/pytorch_cnn_baseline", -1 },
        // MindSpore summaries: valid, truncated tail, bad payload CRC, nested, lineage.
        { "summaries/mindspore_generated/run_a/events.out.events.summary.1700000000.0.helperhost_MS",
          "mindspore-summary", "summaries/mindspore_generated/run_a", -1 },
        { "summaries/mindspore_generated/run_a/events.out.events.summary.1700000000.0.helperhost_lineage",
          "mindspore-lineage", "summaries/mindspore_generated/run_a", -1 },
        { "summaries/mindspore_generated/run_a/nested_not_scanned/events.out.events.summary.1700000100.0.helperhost_MS",
          "mindspore-summary", "summaries/mindspore_generated/run_a/nested_not_scanned", -1 },
        { "summaries/mindspore_generated/run_truncated/events.out.events.summary.1700000200.0.helperhost_MS",
          "mindspore-summary", "summaries/mindspore_generated/run_truncated", -1 },
        { "summaries/mindspore_generated/run_bad_crc/events.out.events.summary.1700000300.0.helperhost_MS",
          "mindspore-summary", "summaries/mindspore_generated/run_bad_crc", -1 },
        // Kineto and legacy torch traces, plain and gzip; ranks from distributedInfo.
        { "traces/kineto/2020_toplevel_array/worker0.pt.trace.json.gz", "chrome-trace", ".", -1 },
        { "traces/kineto/2021_resnet50_v100/worker0.1623143089861.pt.trace.json.gz", "chrome-trace", ".", -1 },
        { "traces/kineto/2021_fixture_computeProperties/gpu_metrics_input.json", "chrome-trace", ".", -1 },
        { "traces/kineto/2022_memory_rank1_of_2/df_index_resolver.json.gz", "chrome-trace", ".", 1 },
        { "traces/kineto/2024_nccl_rank0_of_2/nccl_data.json.gz", "chrome-trace", ".", 0 },
        { "traces/kineto/ns_resolution/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz", "chrome-trace", ".", 0 },
        { "traces/kineto/amd_mi250/mi250_minitoy_train_ROCm6_2_kineto.json.gz", "chrome-trace", ".", -1 },
        { "traces/kineto/triton/triton_example.json.gz", "chrome-trace", ".", -1 },
        { "traces/kineto/cpu_only_rank34_of_300/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz", "chrome-trace", ".",
          34 },
        { "traces/memory_timeline/memory_timeline.raw.gz", "memory-timeline", ".", -1 },
        { "runs/pytorch_cnn_baseline/profiler/worker0.1795321630770.pt.trace.json", "chrome-trace",
          "runs/pytorch_cnn_baseline", -1 },
        { "runs/pytorch_cnn_baseline/profiler/worker0.1795321630770.pt.trace.json.gz", "chrome-trace",
          "runs/pytorch_cnn_baseline", -1 },
        { "runs/pytorch_cnn_baseline/profiler/worker0.1795321630770.pt.trace.kinetofmt.json", "chrome-trace",
          "runs/pytorch_cnn_baseline", -1 },
        { "runs/pytorch_cnn_baseline/profiler/worker0.1795321632690.pt.trace.kinetofmt.json", "chrome-trace",
          "runs/pytorch_cnn_baseline", -1 },
        // Graphs.
        { "graphs/onnx/light_resnet50.onnx", "graph-onnx", ".", -1 },
        { "graphs/onnx/light_inception_v1.onnx", "graph-onnx", ".", -1 },
        { "graphs/onnx/mnist-8.onnx", "graph-onnx", ".", -1 },
        { "graphs/onnx/test_loop11/model.onnx", "graph-onnx", ".", -1 },
        { "graphs/onnx/test_attention_4d_expanded/model.onnx", "graph-onnx", ".", -1 },
        { "runs/pytorch_cnn_baseline/graph/model.onnx", "graph-onnx", "runs/pytorch_cnn_baseline", -1 },
        { "graphs/tensorflow/resnet_8_simple.pbtxt", "graph-tensorflow", ".", -1 },
        { "graphs/tensorflow/graphdef_foo.pbtxt", "graph-tensorflow", ".", -1 },
        { "graphs/mindspore_debug_graph_pb/lenet.pb", "graph-anf-ir", ".", -1 },
        { "graphs/mindspore_dot/ir.dot", "graph-dot", ".", -1 },
        { "graphs/mindspore_dot/cf.dot", "graph-dot", ".", -1 },
        { "graphs/dot/example.dot", "graph-dot", ".", -1 },
        { "runs/pytorch_cnn_baseline/graph/fx.graph.dot", "graph-dot", "runs/pytorch_cnn_baseline", -1 },
        { "runs/pytorch_cnn_baseline/graph/model.onnx.dot", "graph-dot", "runs/pytorch_cnn_baseline", -1 },
        { "graphs/mindspore_ir/mindir.md.ex1_18_execute_0161.ir", "graph-mindspore-ir", ".", -1 },
        { "graphs/mindspore_ir/mindir.md.ex6_analyze_fail_biasadd_shape.ir", "graph-mindspore-ir", ".", -1 },
        { "graphs/mindspore_ir/read_ir_files.md.ex1_ms1x_format.ir", "graph-mindspore-ir", ".", -1 },
        { "graphs/mindspore_ir/read_ir_files.md.ex3_ms1x_format.dat", "graph-mindspore-ir", ".", -1 },
        { "graphs/mindspore_ir/recompute.md.ex2_fragment_no_recompute.ir", "graph-mindspore-ir", ".", -1 },
        { "graphs/mindspore_ir/dump.md.ex4_fragment_kernel_graph_conv2d.ir", "graph-mindspore-ir", ".", -1 },
        { "graphs/torchscript/TestJit.test_alexnet.expect", "graph-torchscript", ".", -1 },
        { "runs/pytorch_cnn_baseline/graph/jit_trace.graph.txt", "graph-torchscript", "runs/pytorch_cnn_baseline", -1 },
        { "runs/pytorch_cnn_baseline/graph/jit_trace.inlined_graph.txt", "graph-torchscript",
          "runs/pytorch_cnn_baseline", -1 },
        { "runs/pytorch_cnn_baseline/graph/fx.graph.txt", "graph-torchscript", "runs/pytorch_cnn_baseline", -1 },
        // Tensors.
        { "runs/pytorch_cnn_baseline/dump/step_0/conv1.weight.npy", "tensor-npy", "runs/pytorch_cnn_baseline", -1 },
        { "runs/pytorch_cnn_baseline/dump/step_30/fc1.weight_fp16.npy", "tensor-npy", "runs/pytorch_cnn_baseline", -1 },
        { "runs/pytorch_cnn_baseline/dump/step_59/batch.target.npy", "tensor-npy", "runs/pytorch_cnn_baseline", -1 },
        { "runs/pytorch_cnn_baseline/state_dict.npz", "tensor-npz", "runs/pytorch_cnn_baseline", -1 },
        { "runs/pytorch_cnn_baseline/state_dict.compressed.npz", "tensor-npz", "runs/pytorch_cnn_baseline", -1 },
        // MindSpore profiler folders; ranks from the `_{rank}` suffixes.
        { "profiler/mindspore/run_1_profiler/aicore_intermediate_1_detail.csv", "profiler-table", ".", 1 },
        { "profiler/mindspore/run_1_profiler/aicore_intermediate_1_type.csv", "profiler-table", ".", 1 },
        { "profiler/mindspore/run_1_profiler/flops_1.txt", "profiler-table", ".", 1 },
        { "profiler/mindspore/run_1_profiler/framework_raw_1.csv", "profiler-table", ".", 1 },
        { "profiler/mindspore/run_1_profiler/min_cycle_counter_1.txt", "profiler-table", ".", 1 },
        { "profiler/mindspore/run_1_profiler/minddata_pipeline_raw_1.csv", "profiler-table", ".", 1 },
        { "profiler/mindspore/run_1_profiler/output_op_compute_time_1.txt", "profiler-table", ".", 1 },
        { "profiler/mindspore/run_1_profiler/output_op_compute_time_detail_1.txt", "profiler-table", ".", 1 },
        { "profiler/mindspore/run_1_profiler/output_timeline_data_1.txt", "profiler-table", ".", 1 },
        { "profiler/mindspore/run_1_profiler/step_trace_raw_1_detail_time.csv", "profiler-table", ".", 1 },
        { "profiler/mindspore/run_1_profiler/pipeline_profiling_1.json", "profiler-json", ".", 1 },
        { "profiler/mindspore/run_1_profiler/step_trace_point_info.json", "profiler-json", ".", -1 },
        { "profiler/mindspore/run_1_profiler/timeline_summary_1.json", "profiler-json", ".", 1 },
        { "profiler/mindspore/run_1_profiler/timeline_display_1.json", "chrome-trace", ".", -1 },
        { "profiler/mindspore/profiler_misc/ascend_timeline_display_0.json", "chrome-trace", ".", -1 },
        { "profiler/mindspore/profiler_misc/gpu_timeline_display_0.json", "chrome-trace", ".", -1 },
        { "profiler/mindspore/profiler_misc/ascend_timeline_summary_0.json", "profiler-json", ".", 0 },
        { "profiler/mindspore/profiler_misc/gpu_timeline_summary_0.json", "profiler-json", ".", 0 },
        { "profiler/mindspore/profiler_misc/dynamic_shape_info_0.json", "profiler-json", ".", 0 },
        { "profiler/mindspore/profiler_misc/flops_scope_0.json", "profiler-json", ".", 0 },
        { "profiler/mindspore/profiler_misc/flops_summary_0.json", "profiler-json", ".", 0 },
        { "profiler/mindspore/profiler_misc/minddata_cpu_utilization_0.json", "profiler-json", ".", 0 },
        { "profiler/mindspore/profiler_misc/pipeline_profiling_0.json", "profiler-json", ".", 0 },
        { "profiler/mindspore/profiler_misc/device_queue_profiling_0.txt", "profiler-table", ".", 0 },
        { "profiler/mindspore/profiler_misc/flops_0.txt", "profiler-table", ".", 0 },
        { "profiler/mindspore/profiler_misc/step_trace_raw_10_detail_time.csv", "profiler-table", ".", 10 },
        { "profiler/mindspore/minddata_pipeline_fixture/minddata_pipeline_raw_3.csv", "profiler-table", ".", 3 },
        { "profiler/mindspore/minddata_pipeline_fixture/framework_raw_0.csv", "profiler-table", ".", 0 },
        // Tables written by the training script, and the samples' own manifest (a TSV with a header).
        { "runs/pytorch_cnn_baseline/metrics.csv", "table", "runs/pytorch_cnn_baseline", -1 },
        { "MANIFEST.tsv", "table", ".", -1 },
        // Files of no kind: left out.
        { "README.md", "", "", -1 },
        { "runs/pytorch_cnn_baseline/run_facts.json", "", "", -1 },
        { "runs/pytorch_cnn_baseline/graph/model.onnx.txt", "", "", -1 },
        { "runs/pytorch_cnn_baseline/graph/fx.code.py", "", "", -1 },
        { "runs/pytorch_cnn_baseline/profiler/key_averages.txt", "", "", -1 },
        { "runs/pytorch_cnn_baseline/profiler/stacks.self_cpu.txt", "", "", -1 },
    };
    for (const Row& row : rows)
        QTest::newRow(row.path) << QString::fromUtf8(row.path) << QString::fromUtf8(row.kind)
                                << QString::fromUtf8(row.run) << row.rank;
}

void TestRunScannerSamples::samplesConformance()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    QFETCH(QString, path);
    QFETCH(QString, kind);
    QFETCH(QString, run);
    QFETCH(int, rank);

    const QString absolute = samples + QLatin1Char('/') + path;
    QVERIFY2(QFileInfo::exists(absolute), qPrintable(absolute));
    const RunManifest& manifest = samplesManifest(samples);
    const auto found = std::find_if(manifest.artifacts.begin(), manifest.artifacts.end(),
                                    [&](const Artifact& a) { return a.relativePath == path; });
    const Artifact* artifact = found != manifest.artifacts.end() ? &*found : nullptr;
    if (kind.isEmpty()) {
        if (artifact)
            QFAIL(qPrintable(path + QStringLiteral(" listed as ") + artifactKindId(artifact->kind)));
        return;
    }
    QVERIFY2(artifact, qPrintable(path + QStringLiteral(" not listed")));
    QCOMPARE(artifactKindId(artifact->kind), kind);
    QCOMPARE(artifact->run, run);
    QCOMPARE(artifact->rank.value_or(-1), rank);
    QCOMPARE(artifact->size, QFileInfo(absolute).size());

    // The static classifier agrees with the scan when given the same head.
    QFile file(absolute);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray head = file.read(qint64(FileSniffer::kHeadSize));
    QCOMPARE(artifactKindId(RunScanner::classify(path, head, file.size())), kind);

    // Opening the file alone gives the same kind.
    const RunManifest single = RunScanner().scan(absolute);
    QCOMPARE(single.artifacts.size(), 1);
    QCOMPARE(artifactKindId(single.artifacts.front().kind), kind);
}

void TestRunScannerSamples::samplesRunLayouts_data()
{
    QTest::addColumn<QString>("path"); // below the samples root
    QTest::addColumn<QStringList>("runs");
    QTest::addColumn<QString>("rootName"); // what "." is shown as; "" when there is no "." run

    QTest::newRow("a job folder") << QStringLiteral("runs/pytorch_cnn_baseline") << QStringList { QStringLiteral(".") }
                                  << QStringLiteral("pytorch_cnn_baseline");
    QTest::newRow("its tb folder") << QStringLiteral("runs/pytorch_cnn_baseline/tb")
                                   << QStringList { QStringLiteral(".") } << QStringLiteral("pytorch_cnn_baseline");
    QTest::newRow("its dump folder") << QStringLiteral("runs/pytorch_cnn_baseline/dump")
                                     << QStringList { QStringLiteral(".") } << QStringLiteral("pytorch_cnn_baseline");
    QTest::newRow("a folder of jobs") << QStringLiteral("runs")
                                      << QStringList { QStringLiteral("pytorch_cnn_baseline") } << QString();
    QTest::newRow("a TensorBoard logdir")
        << QStringLiteral("summaries/tensorboard")
        << QStringList { QStringLiteral("sb3_ppo"),         QStringLiteral("tf2_tensor_scalars"),
                         QStringLiteral("torch2_hparams"),  QStringLiteral("torch2_images"),
                         QStringLiteral("torch2_pr_curve"), QStringLiteral("torch2_scalars") }
        << QString();
    QTest::newRow("a MindSpore summary base dir")
        << QStringLiteral("summaries/mindspore_generated")
        << QStringList { QStringLiteral("run_a"), QStringLiteral("run_a/nested_not_scanned"),
                         QStringLiteral("run_bad_crc"), QStringLiteral("run_truncated") }
        << QString();
    QTest::newRow("MindSpore profiler folders")
        << QStringLiteral("profiler/mindspore")
        << QStringList { QStringLiteral("minddata_pipeline_fixture"), QStringLiteral("profiler_misc"),
                         QStringLiteral("run_1_profiler") }
        << QString();
    QTest::newRow("one MindSpore profiler folder")
        << QStringLiteral("profiler/mindspore/run_1_profiler") << QStringList { QStringLiteral(".") }
        << QStringLiteral("run_1_profiler");
    QTest::newRow("Kineto traces, one folder each") << QStringLiteral("traces/kineto")
                                                    << QStringList { QStringLiteral("2020_toplevel_array"),
                                                                     QStringLiteral("2021_fixture_computeProperties"),
                                                                     QStringLiteral("2021_resnet50_v100"),
                                                                     QStringLiteral("2022_memory_rank1_of_2"),
                                                                     QStringLiteral("2024_nccl_rank0_of_2"),
                                                                     QStringLiteral("amd_mi250"),
                                                                     QStringLiteral("cpu_only_rank34_of_300"),
                                                                     QStringLiteral("ns_resolution"),
                                                                     QStringLiteral("triton") }
                                                    << QString();
    QTest::newRow("the samples root") << QString()
                                      << QStringList { QStringLiteral("."),
                                                       QStringLiteral("accuracy"),
                                                       QStringLiteral("graphs/torch_add_graph_event"),
                                                       QStringLiteral("runs/pytorch_cnn_baseline"),
                                                       QStringLiteral("summaries/mindspore_generated/run_a"),
                                                       QStringLiteral(
                                                           "summaries/mindspore_generated/run_a/nested_not_scanned"),
                                                       QStringLiteral("summaries/mindspore_generated/run_bad_crc"),
                                                       QStringLiteral("summaries/mindspore_generated/run_truncated"),
                                                       QStringLiteral("summaries/tensorboard/sb3_ppo"),
                                                       QStringLiteral("summaries/tensorboard/tf2_tensor_scalars"),
                                                       QStringLiteral("summaries/tensorboard/torch2_hparams"),
                                                       QStringLiteral("summaries/tensorboard/torch2_images"),
                                                       QStringLiteral("summaries/tensorboard/torch2_pr_curve"),
                                                       QStringLiteral("summaries/tensorboard/torch2_scalars") }
                                      << QString();
}

void TestRunScannerSamples::samplesRunLayouts()
{
    RUNLENS_REQUIRE_SAMPLES(samples);
    QFETCH(QString, path);
    QFETCH(QStringList, runs);
    QFETCH(QString, rootName);

    const QString absolute = path.isEmpty() ? samples : samples + QLatin1Char('/') + path;
    QVERIFY2(QFileInfo::exists(absolute), qPrintable(absolute));
    const RunManifest manifest = RunScanner().scan(absolute);
    QCOMPARE(manifest.runs(), runs);
    if (!rootName.isEmpty())
        QCOMPARE(manifest.runDisplayName(QStringLiteral(".")), rootName);
}

QTEST_GUILESS_MAIN(TestRunScannerSamples)
#include "tst_runscannersamples.moc"
