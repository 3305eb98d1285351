#include "tests/importers/accuracy/msprobetestoracle.h"
#include "tests/pythonoracle.h"
#include "tests/testutils.h"

#include "importers/accuracy/msprobedumpreader.h"
#include "importers/accuracy/msprobeimporter.h"
#include "importers/core/artifactimporter.h"
#include "importers/core/filesniffer.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::importers::accuracy;
using namespace runlens::models;
using namespace runlens::models::accuracy;
using namespace runlens::test::msprobe;

namespace {

const char kTensorDump[] = R"j({
 "task": "tensor", "level": "L1", "framework": "pytorch", "dump_data_dir": "/old/place/dump_tensor_data",
 "data": {
  "Tensor.cat.0.forward": {
   "input_args": [
    [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2, 3], "Max": NaN, "Min": -Infinity,
      "Mean": Infinity, "Norm": 1.5, "requires_grad": true, "data_name": "Tensor.cat.0.forward.input.0.0.pt"},
     {"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2, 3], "Max": 1.0, "Min": 0.0, "Mean": 0.5,
      "Norm": 2.0, "requires_grad": false, "data_name": "Tensor.cat.0.forward.input.0.1.pt"}],
    {"type": "int", "value": 0}
   ],
   "input_kwargs": {"out": null, "dim_hint": {"type": "slice", "value": [0, null, 2]}},
   "output": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [4, 3], "Max": 1.0, "Min": -1.0,
               "Mean": 0.25, "Norm": 3.0, "requires_grad": true, "data_name": "Tensor.cat.0.forward.output.0.pt"}]
  },
  "Module.module.Float16Module.forward.0": {
   "input_args": [],
   "input_kwargs": {"labels": {"type": "torch.Tensor", "dtype": "torch.int64", "shape": [8], "Max": 9, "Min": 0,
                    "Mean": 4.5, "Norm": 16.88, "requires_grad": false,
                    "data_name": "Module.module.Float16Module.forward.0.kwargs.labels.pt"}},
   "output": [{"type": "torch.Tensor", "dtype": "torch.bool", "shape": [8], "Max": true, "Min": false,
               "Mean": null, "Norm": null, "requires_grad": false, "data_name": "-1"}]
  },
  "Functional.dropout.0.forward": {
   "input_args": [{"type": "torch.Tensor", "dtype": "torch.float16", "shape": [], "Max": 2, "Min": 2, "Mean": 2,
                   "Norm": 2, "requires_grad": false, "data_name": "Functional.dropout.0.forward.input.0.pt"}],
   "input_kwargs": {"p": {"type": "float", "value": 0.1}, "training": {"type": "bool", "value": true},
                    "dtype": {"type": "torch.dtype", "value": "torch.float16"}},
   "output": [{"type": "torch.Tensor", "dtype": "torch.float16", "shape": [], "Max": 0, "Min": 0, "Mean": 0,
               "Norm": 0, "requires_grad": false, "data_name": "Functional.dropout.0.forward.output.0.pt"}]
  }
 }
})j";

// A statistics dump in md5 summary mode.
const char kMd5Dump[] = R"j({"task": "statistics", "level": "L1", "framework": "pytorch", "dump_data_dir": null,
 "data": {"Torch.matmul.0.forward": {"input_args": [
   {"type": "torch.Tensor", "dtype": "torch.bfloat16", "shape": [2, 2], "Max": 1.0, "Min": 0.0, "Mean": 0.5,
    "Norm": 1.0, "requires_grad": true, "md5": "00d69ba8"}],
  "input_kwargs": {}, "output": [{"type": "torch.Tensor", "dtype": "torch.bfloat16", "shape": [2, 2], "Max": 2.0,
   "Min": 0.0, "Mean": 1.0, "Norm": 2.0, "requires_grad": true, "md5": "1a2b3c4d"}]},
  "Torch.matmul.0.backward": {"input": [{"type": "torch.Tensor", "dtype": "torch.bfloat16", "shape": [2, 2],
   "Max": 1.0, "Min": 1.0, "Mean": 1.0, "Norm": 2.0, "requires_grad": false, "md5": "ffffffff"}],
   "output": [null]}}})j";

// An L0 dump: modules with parameters, a backward module, gradients of parameters in the old (no counter) and
// the new form, module paths with digits and a path segment that contains "forward".
const char kL0Dump[] = R"j({"task": "statistics", "level": "L0", "framework": "pytorch", "dump_data_dir": null,
 "data": {
  "Module.layers.0.feed_forward.Linear.forward.1": {
   "input_args": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [4, 8], "Max": 1, "Min": -1,
                   "Mean": 0, "Norm": 4, "requires_grad": true}],
   "input_kwargs": {},
   "output": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [4, 16], "Max": 2, "Min": -2, "Mean": 0,
               "Norm": 8, "requires_grad": true}],
   "parameters": {"weight": {"type": "torch.Tensor", "dtype": "torch.float32", "shape": [16, 8], "Max": 0.5,
                  "Min": -0.5, "Mean": 0.01, "Norm": 5.5, "requires_grad": true},
                  "bias": {"type": "torch.Tensor", "dtype": "torch.float32", "shape": [16], "Max": 0.1, "Min": -0.1,
                  "Mean": 0.0, "Norm": 0.3, "requires_grad": true}},
   "is_recompute": false
  },
  "Module.layers.0.feed_forward.Linear.backward.1": {
   "input": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [4, 16], "Max": 0.2, "Min": -0.2,
              "Mean": 0, "Norm": 1, "requires_grad": false}],
   "output": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [4, 8], "Max": 0.1, "Min": -0.1,
               "Mean": 0, "Norm": 0.5, "requires_grad": false}]
  },
  "Module.layers.0.feed_forward.Linear.parameters_grad": {
   "weight": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [16, 8], "Max": 0.01, "Min": -0.01,
               "Mean": 0, "Norm": 0.05, "requires_grad": false}],
   "bias": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [16], "Max": 0.02, "Min": -0.02,
             "Mean": 0, "Norm": 0.06, "requires_grad": false}]
  },
  "Module.Net.forward.0": {"input_args": [], "input_kwargs": {}, "output": []},
  "Module.layers.0.feed_forward.Linear.parameters_grad.2": {
   "weight": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [16, 8], "Max": 0.03, "Min": -0.03,
               "Mean": 0, "Norm": 0.07, "requires_grad": false}]
  }
 }})j";

const char kL0Construct[] = R"j({
 "Module.layers.0.feed_forward.Linear.forward.1": ["Module.layers.0.Block.forward.0", 3],
 "Module.layers.0.feed_forward.Linear.backward.1": "Module.layers.0.Block.backward.0",
 "Module.Net.forward.0": null,
 "Module.layers.0.Block.forward.0": "",
 "megatron_micro_step_number": 4
})j";

// The old stack form: entry name -> frames.
const char kOldStacks[] = R"j({
 "Module.layers.0.feed_forward.Linear.forward.1": [
  "File /net/model.py, line 42, in forward, \n return self.linear(x)",
  "File /net/train.py, line 7, in main, \n loss = model(batch)"],
 "Module.Net.forward.0": ["File /net/train.py, line 6, in main, \n out = net(x)"]
})j";

// A MindSpore mix dump whose stack.json has the newer, deduplicated form.
const char kMindSporeDump[] = R"j({"task": "tensor", "level": "mix", "framework": "mindspore", "dump_data_dir": null,
 "data": {
  "Primitive.norm.RmsNorm.0.forward": {"input_args": [{"type": "mindspore.Tensor", "dtype": "BFloat16",
    "shape": [1, 4], "Max": 1.0, "Min": 0.0, "Mean": 0.5, "Norm": 1.0,
    "data_name": "Primitive.norm.RmsNorm.0.forward.input.0.npy"}], "input_kwargs": {},
    "output": [{"type": "mindspore.Tensor", "dtype": "BFloat16", "shape": [1, 4], "Max": 1.0, "Min": 0.0,
    "Mean": 0.5, "Norm": 1.0, "data_name": "Primitive.norm.RmsNorm.0.forward.output.0.npy"}]},
  "Mint.cos.0.forward": {"input_args": [{"type": "mindspore.Tensor", "dtype": "Float32", "shape": [3],
    "Max": 1, "Min": 0, "Mean": 0.5, "Norm": 1.1, "data_name": "Mint.cos.0.forward.input.0.npy"}],
    "input_kwargs": {}, "output": [{"type": "mindspore.Tensor", "dtype": "Float32", "shape": [3], "Max": 1,
    "Min": 0.5, "Mean": 0.7, "Norm": 1.3, "data_name": "Mint.cos.0.forward.output.0.npy"}]},
  "Mint.cos.0.backward": {"input": [{"type": "mindspore.Tensor", "dtype": "Float32", "shape": [3], "Max": 1,
    "Min": 1, "Mean": 1, "Norm": 1.7, "data_name": "Mint.cos.0.backward.input.0.npy"}], "output": []},
  "Cell.0.relu.ReLU.backward.1": {"input": [], "output": []}
 }})j";

const char kNewStacks[] = R"j({
 "0": [["Primitive.norm.RmsNorm.0.forward", "Mint.cos.0.forward"],
       ["File /ms/layer.py, line 10, in construct, \n y = self.norm(x)"]],
 "1": [["Cell.0.relu.ReLU.forward.0"], ["File /ms/net.py, line 3, in construct, \n return self.relu(x)",
       "File /ms/train.py, line 1, in <module>, \n net(x)"]]
})j";

} // namespace

class TestMsprobeDumpReader : public QObject
{
    Q_OBJECT

private slots:
    void entryNames_data();
    void entryNames();
    void stackFrames();
    void tensorTask();
    void md5Task();
    void moduleLevel();
    void mindSporeNewStacks();
    void malformedEntries();
    void truncatedDump();
    void notADump_data();
    void notADump();
    void cancel();
    void sniffer();
    void importer();
};

void TestMsprobeDumpReader::entryNames_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("api");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("className");
    QTest::addColumn<qint64>("counter");
    QTest::addColumn<QString>("direction");
    QTest::addColumn<QString>("scope");

    QTest::newRow("functional") << "Functional.conv2d.0.forward" << true << "functional"
                                << "conv2d"
                                << ""
                                << "" << qint64(0) << "forward"
                                << "Functional.conv2d";
    QTest::newRow("tensor dunder") << "Tensor.__add__.3.backward" << true << "tensor"
                                   << "__add__"
                                   << ""
                                   << "" << qint64(3) << "backward"
                                   << "Tensor.__add__";
    QTest::newRow("npu") << "NPU.npu_fusion_attention.0.backward" << true << "npu"
                         << "npu_fusion_attention"
                         << ""
                         << "" << qint64(0) << "backward"
                         << "NPU.npu_fusion_attention";
    QTest::newRow("distributed") << "Distributed.all_reduce.12.forward" << true << "distributed"
                                 << "all_reduce"
                                 << ""
                                 << "" << qint64(12) << "forward"
                                 << "Distributed.all_reduce";
    QTest::newRow("primitive five parts") << "Primitive.norm.RmsNorm.0.forward" << true << "primitive"
                                          << "norm.RmsNorm"
                                          << ""
                                          << "" << qint64(0) << "forward"
                                          << "Primitive.norm.RmsNorm";
    QTest::newRow("mint functional") << "MintFunctional.relu.2.backward" << true << "mint-functional"
                                     << "relu"
                                     << ""
                                     << "" << qint64(2) << "backward"
                                     << "MintFunctional.relu";
    QTest::newRow("module L0") << "Module.layer1.0.conv1.Conv2d.forward.0" << true << "module"
                               << ""
                               << "layer1.0.conv1"
                               << "Conv2d" << qint64(0) << "forward"
                               << "Module.layer1.0.conv1.Conv2d";
    QTest::newRow("module feed_forward") << "Module.layers.3.feed_forward.MLP.backward.7" << true << "module"
                                         << ""
                                         << "layers.3.feed_forward"
                                         << "MLP" << qint64(7) << "backward"
                                         << "Module.layers.3.feed_forward.MLP";
    QTest::newRow("module root") << "Module.Net.forward.0" << true << "module"
                                 << ""
                                 << ""
                                 << "Net" << qint64(0) << "forward"
                                 << "Module.Net";
    QTest::newRow("cell list index") << "Cell.0.relu.ReLU.backward.1" << true << "cell"
                                     << ""
                                     << "0.relu"
                                     << "ReLU" << qint64(1) << "backward"
                                     << "Cell.0.relu.ReLU";
    QTest::newRow("parameters_grad new") << "Module.fc.Linear.parameters_grad.0" << true << "module"
                                         << ""
                                         << "fc"
                                         << "Linear" << qint64(0) << "parameters_grad"
                                         << "Module.fc.Linear";
    QTest::newRow("parameters_grad old") << "Module.fc.Linear.parameters_grad" << true << "module"
                                         << ""
                                         << "fc"
                                         << "Linear" << qint64(-1) << "parameters_grad"
                                         << "Module.fc.Linear";
    QTest::newRow("unknown prefix") << "Foo.bar.1.forward" << true << "other"
                                    << "bar"
                                    << ""
                                    << "" << qint64(1) << "forward"
                                    << "Foo.bar";
    QTest::newRow("no counter") << "Functional.conv2d.forward" << false << "functional"
                                << ""
                                << ""
                                << "" << qint64(-1) << "unknown"
                                << "Functional.conv2d.forward";
    QTest::newRow("module without class") << "Module.forward.0" << false << "module"
                                          << ""
                                          << ""
                                          << "" << qint64(-1) << "unknown"
                                          << "Module.forward.0";
    QTest::newRow("one word") << "optimizer" << false << "other"
                              << ""
                              << ""
                              << "" << qint64(-1) << "unknown"
                              << "optimizer";
}

void TestMsprobeDumpReader::entryNames()
{
    QFETCH(QString, name);
    QFETCH(bool, valid);
    QFETCH(QString, kind);
    QFETCH(QString, api);
    QFETCH(QString, path);
    QFETCH(QString, className);
    QFETCH(qint64, counter);
    QFETCH(QString, direction);
    QFETCH(QString, scope);
    const EntryName parsed = parseEntryName(name);
    QCOMPARE(parsed.full, name);
    QCOMPARE(parsed.valid, valid);
    QCOMPARE(entryKindId(parsed.kind), kind);
    if (!valid)
        return;
    QCOMPARE(parsed.api, api);
    QCOMPARE(parsed.modulePath, path);
    QCOMPARE(parsed.className, className);
    QCOMPARE(parsed.counter, counter);
    QCOMPARE(directionId(parsed.direction), direction);
    QCOMPARE(parsed.scope(), scope);
}

void TestMsprobeDumpReader::stackFrames()
{
    const StackFrame frame
        = parseStackFrame(QStringLiteral("File /p/a, b/utils.py, line 176, in get_masks, \n attention_mask[b, 0] = 0"));
    QCOMPARE(frame.file, QStringLiteral("/p/a, b/utils.py"));
    QCOMPARE(frame.line, 176);
    QCOMPARE(frame.function, QStringLiteral("get_masks"));
    QCOMPARE(frame.code, QStringLiteral("attention_mask[b, 0] = 0"));
    QVERIFY(frame.text.isEmpty());
    const StackFrame odd = parseStackFrame(QStringLiteral("<frozen importlib>"));
    QCOMPARE(odd.line, -1);
    QCOMPARE(odd.text, QStringLiteral("<frozen importlib>"));
}

void TestMsprobeDumpReader::tensorTask()
{
    QTemporaryDir dir;
    const QString folder = dir.filePath(QStringLiteral("dump/step0/rank0"));
    writeFile(folder + QStringLiteral("/dump.json"), kTensorDump);
    // Files for all but one of the data names; one file no entry names.
    for (const char* name :
         { "Tensor.cat.0.forward.input.0.0.pt", "Tensor.cat.0.forward.input.0.1.pt", "Tensor.cat.0.forward.output.0.pt",
           "Module.module.Float16Module.forward.0.kwargs.labels.pt", "Functional.dropout.0.forward.input.0.pt",
           "Functional.relu.0.forward.output.0.pt" })
        writeFile(folder + QStringLiteral("/dump_tensor_data/") + QLatin1String(name), "x");

    const MsprobeReadResult result = readMsprobeDump(folder);
    const MsprobeDump& dump = *result.dump;
    QCOMPARE(dump.task, DumpTask::Tensor);
    QCOMPARE(dump.level, DumpLevel::L1);
    QCOMPARE(dump.dumpDataDir, QStringLiteral("/old/place/dump_tensor_data"));
    QCOMPARE(dump.entries.size(), 3);
    QCOMPARE(dump.tensorFiles.size(), 6);
    // The missing output file of dropout is a warning naming it; the unnamed relu file an info.
    QCOMPARE(result.status, ImportStatus::Partial);
    QVERIFY(diagnosticsText(result.diagnostics).contains(QStringLiteral("Functional.dropout.0.forward.output.0.pt")));
    QVERIFY(diagnosticsText(result.diagnostics).contains(QStringLiteral("1 files in")));

    bool ok = false;
    const QJsonObject oracle = runOracle(folder, &ok);
    if (ok)
        compareWithOracle(dump, oracle);

    const DumpEntry& cat = dump.entries[0];
    QCOMPARE(cat.rows.size(), 6); // two list elements, the int, two kwargs (one None), the output
    QCOMPARE(cat.rows[0].name, QStringLiteral("Tensor.cat.0.forward.input.0.0"));
    QCOMPARE(cat.rows[0].path, QStringLiteral("0.0"));
    QCOMPARE(cat.rows[1].path, QStringLiteral("0.1"));
    QVERIFY(std::isnan(*cat.rows[0].max));
    QVERIFY(std::isinf(*cat.rows[0].min) && *cat.rows[0].min < 0);
    QVERIFY(std::isinf(*cat.rows[0].mean) && *cat.rows[0].mean > 0);
    QCOMPARE(*cat.rows[0].norm, 1.5);
    QCOMPARE(cat.rows[0].requiresGrad, std::optional<bool>(true));
    QCOMPARE(dump.tensorFilePath(cat.rows[0]),
             folder + QStringLiteral("/dump_tensor_data/Tensor.cat.0.forward.input.0.0.pt"));
    QCOMPARE(cat.rows[2].name, QStringLiteral("Tensor.cat.0.forward.input.1"));
    QCOMPARE(cat.rows[2].kind, ValueKind::Scalar);
    QCOMPARE(cat.rows[2].value.toLongLong(), 0);
    QCOMPARE(cat.rows[3].name, QStringLiteral("Tensor.cat.0.forward.input.out"));
    QCOMPARE(cat.rows[3].kind, ValueKind::Null);
    QCOMPARE(cat.rows[3].role, ArgRole::Kwarg);
    QCOMPARE(cat.rows[4].name, QStringLiteral("Tensor.cat.0.forward.input.dim_hint"));
    QCOMPARE(cat.rows[4].type, QStringLiteral("slice"));
    QCOMPARE(cat.rows[4].value.toList().size(), 3);
    QVERIFY(cat.rows[4].value.toList()[1].isNull());
    QCOMPARE(cat.rows[5].name, QStringLiteral("Tensor.cat.0.forward.output.0"));
    QCOMPARE(cat.rows[5].role, ArgRole::Output);

    const DumpEntry& module = dump.entries[1];
    QCOMPARE(module.name.className, QStringLiteral("Float16Module"));
    QCOMPARE(module.name.modulePath, QStringLiteral("module"));
    // A tensor with a data file is named after the file: kwargs rows read `.kwargs.` in tensor mode.
    QCOMPARE(module.rows[0].name, QStringLiteral("Module.module.Float16Module.forward.0.kwargs.labels"));
    QCOMPARE(module.rows[0].role, ArgRole::Kwarg);
    QCOMPARE(module.rows[0].path, QStringLiteral("labels"));
    // A bool tensor: Max/Min are any/all; "-1" means msprobe could not save it.
    QCOMPARE(module.rows[1].name, QStringLiteral("Module.module.Float16Module.forward.0.output.0"));
    QVERIFY(module.rows[1].booleanStats);
    QCOMPARE(*module.rows[1].max, 1.0);
    QCOMPARE(*module.rows[1].min, 0.0);
    QVERIFY(!module.rows[1].mean && !module.rows[1].norm);
    QVERIFY(module.rows[1].dataName.isEmpty());

    const DumpEntry& dropout = dump.entries[2];
    QCOMPARE(dropout.rows.size(), 5);
    QCOMPARE(dropout.rows[0].shape, QList<qint64>());
    QVERIFY(dropout.rows[0].hasShape);
    QCOMPARE(dropout.rows[1].name, QStringLiteral("Functional.dropout.0.forward.input.p"));
    QCOMPARE(dropout.rows[1].value.toDouble(), 0.1);
    QCOMPARE(dropout.rows[2].value.toBool(), true);
    QCOMPARE(dropout.rows[3].type, QStringLiteral("torch.dtype"));
    QCOMPARE(dropout.rows[3].kind, ValueKind::Scalar);
    QCOMPARE(dropout.rows[3].value.toString(), QStringLiteral("torch.float16"));
    QVERIFY(dump.tensorFilePath(dropout.rows[4]).isEmpty()); // the missing file
}

void TestMsprobeDumpReader::md5Task()
{
    QTemporaryDir dir;
    writeFile(dir.filePath(QStringLiteral("dump.json")), kMd5Dump);
    const MsprobeReadResult result = readMsprobeDump(dir.path());
    QVERIFY2(result.status == ImportStatus::Ok, qPrintable(diagnosticsText(result.diagnostics)));
    const MsprobeDump& dump = *result.dump;
    QCOMPARE(dump.taskText, QStringLiteral("statistics"));
    QCOMPARE(dump.task, DumpTask::Md5);
    QCOMPARE(dump.countDirection(Direction::Forward), 1);
    QCOMPARE(dump.countDirection(Direction::Backward), 1);
    QCOMPARE(dump.entries[0].rows[0].md5, QStringLiteral("00d69ba8"));
    QCOMPARE(dump.entries[0].rows[1].md5, QStringLiteral("1a2b3c4d"));
    const DumpEntry& backward = dump.entries[1];
    QCOMPARE(backward.rows.size(), 2);
    QCOMPARE(backward.rows[0].name, QStringLiteral("Torch.matmul.0.backward.input.0"));
    QCOMPARE(backward.rows[1].name, QStringLiteral("Torch.matmul.0.backward.output.0"));
    QCOMPARE(backward.rows[1].kind, ValueKind::Null);
    QCOMPARE(backward.rows[1].role, ArgRole::Output);
    bool ok = false;
    const QJsonObject oracle = runOracle(dir.path(), &ok);
    if (ok)
        compareWithOracle(dump, oracle);
}

void TestMsprobeDumpReader::moduleLevel()
{
    QTemporaryDir dir;
    writeFile(dir.filePath(QStringLiteral("dump.json")), kL0Dump);
    writeFile(dir.filePath(QStringLiteral("construct.json")), kL0Construct);
    writeFile(dir.filePath(QStringLiteral("stack.json")), kOldStacks);
    const MsprobeReadResult result = readMsprobeDump(dir.path());
    QVERIFY2(result.status == ImportStatus::Ok, qPrintable(diagnosticsText(result.diagnostics)));
    const MsprobeDump& dump = *result.dump;
    QCOMPARE(dump.level, DumpLevel::L0);
    QCOMPARE(dump.entries.size(), 5);
    QCOMPARE(dump.countDirection(Direction::ParametersGrad), 2);

    const DumpEntry& linear = dump.entries[0];
    QCOMPARE(linear.name.modulePath, QStringLiteral("layers.0.feed_forward"));
    QCOMPARE(linear.name.className, QStringLiteral("Linear"));
    QCOMPARE(linear.name.counter, 1);
    QCOMPARE(linear.isRecompute, std::optional<bool>(false));
    // Inputs, then parameters, then outputs, whatever the record's order.
    QStringList names;
    for (const DumpRow& row : linear.rows)
        names << row.name;
    const QString e = linear.name.full;
    QCOMPARE(names,
             QStringList({ e + QStringLiteral(".input.0"), e + QStringLiteral(".parameters.weight"),
                           e + QStringLiteral(".parameters.bias"), e + QStringLiteral(".output.0") }));
    QCOMPARE(linear.rows[1].role, ArgRole::Parameter);
    QCOMPARE(linear.rows[1].shape, QList<qint64>({ 16, 8 }));

    const DumpEntry& grads = dump.entries[2];
    QCOMPARE(grads.name.direction, Direction::ParametersGrad);
    QCOMPARE(grads.name.counter, -1);
    QCOMPARE(grads.rows.size(), 2);
    QCOMPARE(grads.rows[0].name, QStringLiteral("Module.layers.0.feed_forward.Linear.parameters_grad.weight"));
    QCOMPARE(grads.rows[0].role, ArgRole::ParameterGrad);
    QCOMPARE(dump.entries[4].rows[0].name,
             QStringLiteral("Module.layers.0.feed_forward.Linear.parameters_grad.2.weight"));
    QCOMPARE(dump.entries[4].name.counter, 2);
    QVERIFY(dump.entries[3].rows.isEmpty()); // empty lists give no rows

    // construct.json: the Megatron [parent, micro step] form, null and "" parents.
    QCOMPARE(dump.parentOf(linear.name.full), QStringLiteral("Module.layers.0.Block.forward.0"));
    QCOMPARE(dump.parents.value(linear.name.full).microStep, std::optional<qint64>(3));
    QCOMPARE(dump.parentOf(dump.entries[1].name.full), QStringLiteral("Module.layers.0.Block.backward.0"));
    QVERIFY(dump.hasParentRecord(QStringLiteral("Module.Net.forward.0")));
    QCOMPARE(dump.parentOf(QStringLiteral("Module.Net.forward.0")), QString());
    QCOMPARE(dump.megatronMicroSteps, std::optional<qint64>(4));
    QCOMPARE(dump.constructOrder.size(), 4);

    // Old stack form; the backward module and the parameter gradients show the forward call's stack.
    const Stack* stack = dump.stackOf(linear.name.full);
    QVERIFY(stack);
    QCOMPARE(stack->size(), 2);
    QCOMPARE(stack->at(0).file, QStringLiteral("/net/model.py"));
    QCOMPARE(stack->at(0).line, 42);
    QCOMPARE(stack->at(0).function, QStringLiteral("forward"));
    QCOMPARE(stack->at(0).code, QStringLiteral("return self.linear(x)"));
    QCOMPARE(dump.stackOf(dump.entries[1].name.full), stack);
    QVERIFY(!dump.stackOf(dump.entries[2].name.full)); // no forward call 0 of that module here
    QVERIFY(dump.stackOf(QStringLiteral("Module.Net.forward.0")));

    bool ok = false;
    const QJsonObject oracle = runOracle(dir.path(), &ok);
    if (ok) {
        QJsonObject trimmed = oracle;
        // The oracle does not know the Megatron key.
        QJsonObject parents = trimmed.value(QStringLiteral("parents")).toObject();
        parents.remove(QStringLiteral("megatron_micro_step_number"));
        for (auto it = parents.begin(); it != parents.end(); ++it)
            if (it.value().isArray())
                it.value() = it.value().toArray().first();
        trimmed.insert(QStringLiteral("parents"), parents);
        compareWithOracle(dump, trimmed);
    }
}

void TestMsprobeDumpReader::mindSporeNewStacks()
{
    QTemporaryDir dir;
    writeFile(dir.filePath(QStringLiteral("dump.json")), kMindSporeDump);
    writeFile(dir.filePath(QStringLiteral("stack.json")), kNewStacks);
    for (const char* name :
         { "Primitive.norm.RmsNorm.0.forward.input.0.npy", "Primitive.norm.RmsNorm.0.forward.output.0.npy",
           "Mint.cos.0.forward.input.0.npy", "Mint.cos.0.forward.output.0.npy", "Mint.cos.0.backward.input.0.npy" })
        writeFile(dir.filePath(QStringLiteral("dump_tensor_data/") + QLatin1String(name)), "x");
    const MsprobeReadResult result = readMsprobeDump(dir.filePath(QStringLiteral("dump.json")));
    QVERIFY2(result.status == ImportStatus::Ok, qPrintable(diagnosticsText(result.diagnostics)));
    const MsprobeDump& dump = *result.dump;
    QCOMPARE(dump.framework, DumpFramework::MindSpore);
    QCOMPARE(dump.level, DumpLevel::Mix);
    QCOMPARE(dump.stacks.size(), 2);
    QCOMPARE(dump.stackIndex.size(), 3);
    const Stack* shared = dump.stackOf(QStringLiteral("Primitive.norm.RmsNorm.0.forward"));
    QVERIFY(shared);
    QCOMPARE(dump.stackOf(QStringLiteral("Mint.cos.0.forward")), shared);
    QCOMPARE(dump.stackOf(QStringLiteral("Mint.cos.0.backward")), shared);
    QCOMPARE(shared->first().line, 10);
    // A backward module call without a forward twin of the same counter falls back to call 0.
    const Stack* relu = dump.stackOf(QStringLiteral("Cell.0.relu.ReLU.backward.1"));
    QVERIFY(relu);
    QCOMPARE(relu->size(), 2);
    QCOMPARE(relu->at(1).function, QStringLiteral("<module>"));
    const DumpEntry* norm = dump.entry(QStringLiteral("Primitive.norm.RmsNorm.0.forward"));
    QVERIFY(norm);
    QCOMPARE(norm->rows[0].name, QStringLiteral("Primitive.norm.RmsNorm.0.forward.input.0"));
    QCOMPARE(norm->rows[0].dtype, QStringLiteral("BFloat16"));
    QVERIFY(!dump.tensorFilePath(norm->rows[0]).isEmpty());
    QVERIFY(!norm->rows[0].requiresGrad);
    bool ok = false;
    const QJsonObject oracle = runOracle(dir.path(), &ok);
    if (ok)
        compareWithOracle(dump, oracle);
}

void TestMsprobeDumpReader::malformedEntries()
{
    // Wrong types in some records: each is a warning naming the file and the entry; the rest is kept.
    const QByteArray text = R"j({"task": "statistics", "level": "L1", "data": {
      "Functional.relu.0.forward": 5,
      "Functional.relu.1.forward": {"input_args": "oops", "output": [{"type": "torch.Tensor", "dtype": 7,
         "shape": "big", "Max": "high", "Min": [1], "Mean": 1e308, "Norm": 2, "requires_grad": "yes"}]},
      "not a name": {"input_args": [], "output": []},
      "Functional.relu.1.forward": {"input_args": []},
      "Functional.relu.2.forward": {"input_args": [{"type": "torch.Tensor", "dtype": "torch.float32",
         "shape": [-1, 2], "Max": 1, "Min": 0, "Mean": 0.5, "Norm": 1}]}
    }})j";
    MsprobeDumpFiles files;
    files.folder = QStringLiteral("/nowhere");
    files.dumpPath = QStringLiteral("/nowhere/dump.json");
    files.dumpJson = text;
    files.constructPath = QStringLiteral("/nowhere/construct.json");
    files.constructJson = QByteArray(R"j({"a": 5, "b": "c"})j");
    files.stackPath = QStringLiteral("/nowhere/stack.json");
    files.stackJson = QByteArray(R"j({"0": [["x"]], "1": 3, "2": [["y"], ["File a, line 1, in f, \n g()"]]})j");
    const MsprobeReadResult result = parseMsprobeDump(files);
    QCOMPARE(result.status, ImportStatus::Partial);
    const MsprobeDump& dump = *result.dump;
    QCOMPARE(dump.entries.size(), 3);
    QVERIFY(!dump.entries[1].name.valid);
    const QString messages = diagnosticsText(result.diagnostics);
    for (const char* expected :
         { "Functional.relu.0.forward' is not an object", "'input_args' is neither", "'dtype' is not", "'shape' is not",
           "'Max' is not", "'Min' is not", "'requires_grad' is not", "appears twice", "'not a name' is not named",
           "'a': the parent", "stack '0'", "stack '1'" })
        QVERIFY2(messages.contains(QLatin1String(expected)),
                 qPrintable(QStringLiteral("%1 not in:\n%2").arg(QLatin1String(expected), messages)));
    for (const Diagnostic& d : result.diagnostics)
        QVERIFY2(d.file.startsWith(QStringLiteral("/nowhere/")), qPrintable(d.toString()));
    const DumpRow& row = dump.entries[0].rows[0];
    QCOMPARE(*row.mean, 1e308);
    QCOMPARE(*row.norm, 2.0);
    QVERIFY(!row.max && !row.min && !row.hasShape && !row.requiresGrad);
    QVERIFY(!dump.entries[2].rows[0].hasShape); // negative size
    QCOMPARE(dump.parentOf(QStringLiteral("b")), QStringLiteral("c"));
    QVERIFY(dump.stackOf(QStringLiteral("y")));
    QVERIFY(!dump.stackOf(QStringLiteral("x")));
}

void TestMsprobeDumpReader::truncatedDump()
{
    // Cut inside the third entry: the two before the cut are kept, with an error at the cut.
    QByteArray text(kTensorDump);
    const qsizetype cut = text.indexOf("\"Functional.dropout.0.forward\"") + 60;
    text.truncate(cut);
    MsprobeDumpFiles files;
    files.folder = QStringLiteral("/d");
    files.dumpPath = QStringLiteral("/d/dump.json");
    files.dumpJson = text;
    const MsprobeReadResult result = parseMsprobeDump(files);
    QCOMPARE(result.status, ImportStatus::Partial);
    QCOMPARE(result.dump->entries.size(), 2);
    QCOMPARE(result.dump->task, DumpTask::Tensor);
    bool sawError = false;
    for (const Diagnostic& d : result.diagnostics) {
        QVERIFY(d.offset <= text.size());
        sawError = sawError || (d.severity == Severity::Error && d.offset >= cut - 2);
    }
    QVERIFY2(sawError, qPrintable(diagnosticsText(result.diagnostics)));

    // Huge numbers stop the parser the same way.
    files.dumpJson = R"j({"task": "statistics", "level": "L1", "data": {"Torch.abs.0.forward": {"input_args": []},
        "Torch.abs.1.forward": {"input_args": [{"type": "float", "value": 1e999}]}}})j";
    const MsprobeReadResult huge = parseMsprobeDump(files);
    QCOMPARE(huge.status, ImportStatus::Partial);
    QCOMPARE(huge.dump->entries.size(), 1);
}

void TestMsprobeDumpReader::notADump_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::newRow("empty") << QByteArray();
    QTest::newRow("garbage") << QByteArray("\x89PNG\r\n\x1a\n garbage");
    QTest::newRow("array") << QByteArray("[1, 2, 3]");
    QTest::newRow("no data") << QByteArray(R"j({"task": "statistics", "level": "L1"})j");
    QTest::newRow("data is a list") << QByteArray(R"j({"task": "statistics", "level": "L1", "data": [{}]})j");
    QTest::newRow("deep") << QByteArray(R"j({"task": "tensor", "data": {"a": )j") + QByteArray(100000, '[');
    QTest::newRow("cut in header") << QByteArray(R"j({"task": "stat)j");
}

void TestMsprobeDumpReader::notADump()
{
    QFETCH(QByteArray, text);
    MsprobeDumpFiles files;
    files.folder = QStringLiteral("/d");
    files.dumpPath = QStringLiteral("/d/dump.json");
    files.dumpJson = text;
    const MsprobeReadResult result = parseMsprobeDump(files);
    QCOMPARE(result.status, ImportStatus::Failed);
    QVERIFY(result.dump);
    QVERIFY(result.dump->entries.isEmpty());
    QVERIFY(!result.diagnostics.isEmpty());
    for (const Diagnostic& d : result.diagnostics) {
        QCOMPARE(d.file, files.dumpPath);
        QVERIFY(d.offset <= text.size());
    }
}

void TestMsprobeDumpReader::cancel()
{
    QByteArray text = R"j({"task": "statistics", "level": "L1", "data": {)j";
    for (int i = 0; i < 500; ++i)
        text += QStringLiteral(R"j("Torch.abs.%1.forward": {"input_args": []},)j").arg(i).toUtf8();
    text += R"j("Torch.abs.500.forward": {}}})j";
    MsprobeDumpFiles files;
    files.dumpPath = QStringLiteral("/d/dump.json");
    files.dumpJson = text;
    const std::atomic_bool canceled { true };
    ImportControl control;
    control.cancel = &canceled;
    const MsprobeReadResult result = parseMsprobeDump(files, control);
    QCOMPARE(result.status, ImportStatus::Canceled);
    QVERIFY(result.dump->entries.size() < 501);
}

void TestMsprobeDumpReader::sniffer()
{
    auto sniff = [](const char* name, const QByteArray& head) {
        return FileSniffer::sniff(name, "dump/step0/rank0", std::string_view(head.constData(), size_t(head.size())),
                                  head.size())
            .kind;
    };
    QCOMPARE(sniff("dump.json", QByteArray(kTensorDump).left(4096)), ArtifactKind::MsprobeDump);
    QCOMPARE(sniff("dump.json", QByteArray(kL0Dump).left(200)), ArtifactKind::MsprobeDump);
    QCOMPARE(sniff("debug.json", QByteArray(kMd5Dump)), ArtifactKind::MsprobeDump);
    QCOMPARE(sniff("construct.json", QByteArray(kL0Construct)), ArtifactKind::Unknown);
    QCOMPARE(sniff("stack.json", QByteArray(kNewStacks)), ArtifactKind::Unknown);
    QCOMPARE(sniff("stack.json", QByteArray(kOldStacks)), ArtifactKind::Unknown);
    QCOMPARE(artifactKindId(ArtifactKind::MsprobeDump), QStringLiteral("msprobe-dump"));
    QVERIFY(artifactKindImported(ArtifactKind::MsprobeDump));

    RUNLENS_REQUIRE_SAMPLES(samples);
    for (const char* folder : { "/accuracy/msprobe/pytorch_data/", "/accuracy/msprobe/mindspore_data/" }) {
        for (const char* name : { "dump.json", "construct.json", "stack.json" }) {
            QFile file(samples + QLatin1String(folder) + QLatin1String(name));
            QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
            const QByteArray head = file.read(FileSniffer::kHeadSize);
            QCOMPARE(sniff(name, head),
                     qstrcmp(name, "dump.json") == 0 ? ArtifactKind::MsprobeDump : ArtifactKind::Unknown);
        }
    }
}

void TestMsprobeDumpReader::importer()
{
    QTemporaryDir dir;
    writeFile(dir.filePath(QStringLiteral("dump.json")), kL0Dump);
    Artifact artifact;
    artifact.path = dir.filePath(QStringLiteral("dump.json"));
    artifact.kind = ArtifactKind::MsprobeDump;
    const std::unique_ptr<ArtifactImporter> importer = createImporter(artifact);
    QVERIFY(importer);
    const ImportUpdate update = importer->poll({});
    QCOMPARE(update.status, ImportStatus::Ok);
    QVERIFY(update.msprobeDump);
    QCOMPARE(update.msprobeDump->entries.size(), 5);
    QCOMPARE(update.recordsRead, 5);
}

QTEST_GUILESS_MAIN(TestMsprobeDumpReader)
#include "tst_msprobedumpreader.moc"
