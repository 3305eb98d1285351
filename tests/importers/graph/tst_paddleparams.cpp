// Paddle parameter values located in the combined `.pdiparams` file (or one file per variable) beside the
// program: offsets against a Python oracle that walks the file by hand, and damaged files.

#include "importers/graph/graphweights.h"
#include "importers/graph/paddlegraphreader.h"
#include "importers/graph/paddleparams.h"

#include "tests/importers/graph/graphtesthelpers.h"
#include "tests/pythonoracle.h"

#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstring>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::importers::graph;
using namespace runlens::models;
using namespace runlens::models::graph;

using namespace runlens::test::graph;

namespace {

const QString kCnnDir = QStringLiteral(RUNLENS_TEST_DATA_DIR "/paddle/cnn");

GraphResult readModel(const QString& path)
{
    return PaddleGraphReader::read(readAll(path).toStdString(), path);
}

const Node* parameter(const Graph& graph, const QString& name)
{
    const int index = graph.find(name.toStdString());
    return index < 0 ? nullptr : &graph.nodes[std::size_t(index)];
}

/// A copy of the CNN fixture in `dir`, with the parameter file replaced by `params` (none when null).
QString copyWithParams(const QTemporaryDir& dir, const QByteArray* params)
{
    const QString model = dir.filePath(QStringLiteral("inference.pdmodel"));
    QFile::remove(model);
    QFile::copy(kCnnDir + QStringLiteral("/inference.pdmodel"), model);
    QFile::remove(dir.filePath(QStringLiteral("inference.pdiparams")));
    if (params) {
        QFile out(dir.filePath(QStringLiteral("inference.pdiparams")));
        if (out.open(QIODevice::WriteOnly))
            out.write(*params);
    }
    return model;
}

} // namespace

class TestPaddleParams : public QObject
{
    Q_OBJECT

private slots:
    void againstOracle()
    {
        const QString model = kCnnDir + QStringLiteral("/inference.pdmodel");
        const QString params = kCnnDir + QStringLiteral("/inference.pdiparams");
        const test::PythonRun run
            = test::runPythonScript(QStringLiteral("paddle/paddle_params_oracle.py"), { model, params });
        RUNLENS_VERIFY_PYTHON(run);
        const QJsonObject oracle = QJsonDocument::fromJson(run.output.toUtf8()).object();
        const QJsonArray expected = oracle.value(QStringLiteral("params")).toArray();
        QCOMPARE(expected.size(), 8);
        QCOMPARE(oracle.value(QStringLiteral("trailing")).toInt(), 0);

        const GraphResult result = readModel(model);
        QVERIFY(result.graph);
        QVERIFY(
            hasDiagnostic(result, Severity::Info, QStringLiteral("8 parameter(s) are located in inference.pdiparams")));
        const QByteArray bytes = readAll(params);
        for (const QJsonValue value : expected) {
            const QJsonObject want = value.toObject();
            const QString name = want.value(QStringLiteral("name")).toString();
            const Node* node = parameter(*result.graph, name);
            QVERIFY2(node && node->data, qPrintable(name));
            const TensorLocation& at = *node->data;
            QCOMPARE(at.file, std::string("inference.pdiparams"));
            QCOMPARE(at.encoding, std::string("raw"));
            QCOMPARE(at.offset, want.value(QStringLiteral("offset")).toInteger());
            QCOMPARE(at.length, want.value(QStringLiteral("length")).toInteger());
            QCOMPARE(QString::fromStdString(at.type.dtype), want.value(QStringLiteral("dtype")).toString());
            std::vector<std::int64_t> dims;
            for (const QJsonValue d : want.value(QStringLiteral("dims")).toArray())
                dims.push_back(d.toInteger());
            QCOMPARE(at.type.dims, dims);
            // The located bytes are the values numpy read there.
            double sum = 0;
            for (std::int64_t i = 0; i < at.length / 4; ++i) {
                float v = 0;
                std::memcpy(&v, bytes.constData() + at.offset + 4 * i, 4);
                sum += v;
            }
            const double oracleSum = want.value(QStringLiteral("sum")).toDouble();
            QVERIFY2(std::abs(sum - oracleSum) <= 1e-9 * std::max(1.0, std::abs(oracleSum)), qPrintable(name));
        }

        // The same values through the Tensors panel's series: each maps the parameter file when opened.
        const QList<models::tensor::TensorSeries> series = graphWeightSeries(*result.graph);
        QCOMPARE(series.size(), expected.size());
        for (const QJsonValue value : expected) {
            const QJsonObject want = value.toObject();
            const QString name = want.value(QStringLiteral("name")).toString();
            const Node* node = parameter(*result.graph, name);
            const QString location = weightValuesLocation(*result.graph, *node);
            QVERIFY(location.endsWith(QStringLiteral("inference.pdiparams:") + name));
            const auto it = std::find_if(series.begin(), series.end(), [&](const models::tensor::TensorSeries& s) {
                return s.versions.value(0).location() == location;
            });
            QVERIFY2(it != series.end(), qPrintable(location));
            QCOMPARE(it->nodeKey, name);
            const models::tensor::TensorResult opened = it->versions.front().source->open();
            QVERIFY2(opened.tensor, qPrintable(opened.error));
            double sum = 0;
            std::vector<std::int64_t> index(opened.tensor->shape.size(), 0);
            for (std::int64_t n = 0; n < opened.tensor->elementCount(); ++n) {
                sum += opened.tensor->value(index);
                for (int k = int(index.size()) - 1;
                     k >= 0 && ++index[std::size_t(k)] == opened.tensor->shape[std::size_t(k)]; --k)
                    index[std::size_t(k)] = 0;
            }
            const double oracleSum = want.value(QStringLiteral("sum")).toDouble();
            QVERIFY2(std::abs(sum - oracleSum) <= 1e-9 * std::max(1.0, std::abs(oracleSum)), qPrintable(name));
        }
    }

    void damagedFilesKeepWhatCameBefore()
    {
        const QByteArray whole = readAll(kCnnDir + QStringLiteral("/inference.pdiparams"));
        QVERIFY(whole.size() > 1000);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());

        // Cut inside linear_0.w_0 (the last of eight records in name order): the seven before it are located.
        const QByteArray cut = whole.left(whole.size() - 1000);
        GraphResult result = readModel(copyWithParams(dir, &cut));
        QVERIFY(result.graph);
        QVERIFY(hasDiagnostic(result, Severity::Warning, QStringLiteral("run past the end of the file")));
        QVERIFY(hasDiagnostic(result, Severity::Warning, QStringLiteral("7 of the 8 saved parameters")));
        QVERIFY(parameter(*result.graph, QStringLiteral("conv2d_0.w_0"))->data->offset > 0);
        QCOMPARE(parameter(*result.graph, QStringLiteral("linear_0.w_0"))->data->offset, std::int64_t(-1));

        // Bytes after the last parameter: another model's file, or more parameters than the program names.
        const QByteArray longer = whole + QByteArray(16, '\0');
        result = readModel(copyWithParams(dir, &longer));
        QVERIFY(hasDiagnostic(result, Severity::Warning, QStringLiteral("16 bytes follow the last parameter")));

        // Garbage: nothing located, a warning naming what is wrong, the graph as without the file.
        const QByteArray garbage(4096, '\x7f');
        result = readModel(copyWithParams(dir, &garbage));
        QVERIFY(result.graph);
        QVERIFY(hasDiagnostic(result, Severity::Warning, QStringLiteral("does not start as a saved tensor does")));
        QCOMPARE(parameter(*result.graph, QStringLiteral("conv2d_0.w_0"))->data->offset, std::int64_t(-1));

        // No file: the parameters keep shape and type, and the note says which file was looked for.
        result = readModel(copyWithParams(dir, nullptr));
        QVERIFY(hasDiagnostic(result, Severity::Info, QStringLiteral("no parameter file (inference.pdiparams)")));
    }

    void hostileHeaders()
    {
        auto le = [](auto value) { return QByteArray(reinterpret_cast<const char*>(&value), sizeof(value)); };
        // TensorDesc{data_type: 5, dims: [2^40, 2^40]}: its size overflows.
        const QByteArray desc = QByteArray::fromHex("0805"
                                                    "1080808080808020"
                                                    "1080808080808020");
        const QByteArray cases[] = {
            // A description claiming 2 GB.
            le(std::uint32_t(0)) + le(std::uint64_t(0)) + le(std::uint32_t(0)) + le(std::int32_t(0x7fffffff)),
            // A LoD level larger than the file.
            le(std::uint32_t(0)) + le(std::uint64_t(1)) + le(std::uint64_t(1) << 40),
            // A shape whose byte count overflows.
            le(std::uint32_t(0)) + le(std::uint64_t(0)) + le(std::uint32_t(0)) + le(std::int32_t(desc.size())) + desc,
            // A thousand LoD levels.
            le(std::uint32_t(0)) + le(std::uint64_t(1000)),
        };
        for (const QByteArray& bytes : cases) {
            QBuffer buffer;
            buffer.setData(bytes);
            QVERIFY(buffer.open(QIODevice::ReadOnly));
            const PaddleParamsIndex index = indexPaddleParams(buffer, { "w" });
            QVERIFY(index.params.empty());
            QVERIFY(!index.problem.isEmpty());
            QCOMPARE(index.stoppedAt, std::int64_t(0));
        }
    }

    void oneFilePerVariable()
    {
        // fluid 1.x without save_combine: `__model__` and one file per parameter, named as the variable.
        const QByteArray whole = readAll(kCnnDir + QStringLiteral("/inference.pdiparams"));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString model = dir.filePath(QStringLiteral("__model__"));
        QVERIFY(QFile::copy(kCnnDir + QStringLiteral("/inference.pdmodel"), model));
        // The first record is batch_norm_0.b_0 ([16] float32: 88 bytes of record).
        QFile one(dir.filePath(QStringLiteral("batch_norm_0.b_0")));
        QVERIFY(one.open(QIODevice::WriteOnly));
        one.write(whole.left(88));
        one.close();
        const GraphResult result = readModel(model);
        QVERIFY(result.graph);
        const Node* bias = parameter(*result.graph, QStringLiteral("batch_norm_0.b_0"));
        QVERIFY(bias && bias->data);
        QCOMPARE(bias->data->file, std::string("batch_norm_0.b_0"));
        QCOMPARE(bias->data->offset, std::int64_t(24));
        QCOMPARE(bias->data->length, std::int64_t(64));
        QVERIFY(hasDiagnostic(result, Severity::Info, QStringLiteral("one file per parameter")));
    }

    // What counts as plain elements, for every reader: a dtype the panel reads, a known shape, and exactly
    // elements x element size bytes (dims whose product overflows never match).
    void plainElements()
    {
        auto location = [](const char* dtype, std::vector<std::int64_t> dims, std::int64_t length) {
            TensorLocation l;
            l.type.dtype = dtype;
            l.type.dims = std::move(dims);
            l.type.rankKnown = true;
            l.offset = 0;
            l.length = length;
            return l;
        };
        QVERIFY(holdsPlainElements(location("float32", { 2, 3 }, 24)));
        QVERIFY(holdsPlainElements(location("int8", { 5 }, 5)));
        QVERIFY(holdsPlainElements(location("bfloat16", {}, 2)));
        QVERIFY(!holdsPlainElements(location("float32", { 2, 3 }, 20)));
        QVERIFY(!holdsPlainElements(location("float32", { -1, 3 }, 12)));
        QVERIFY(!holdsPlainElements(location("float32", { std::int64_t(1) << 62, 4 }, 0)));
        QVERIFY(!holdsPlainElements(location("float32", { std::int64_t(1) << 62, 4 }, 8)));
        QVERIFY(!holdsPlainElements(location("string", { 2 }, 16)));
        QVERIFY(!holdsPlainElements(location("resource", {}, 4)));
        QVERIFY(!holdsPlainElements(location("int4", { 4 }, 2)));
        QVERIFY(!holdsPlainElements(location("qint8", { 4 }, 4)));
        TensorLocation unknownRank = location("float32", {}, 4);
        unknownRank.type.rankKnown = false;
        QVERIFY(!holdsPlainElements(unknownRank));
    }

    // Weights no node stands for are listed by their name and map their data file; a raw one whose length
    // the shape does not account for, or that runs past its file, is not.
    void detachedWeightsAreListed()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile data(dir.filePath(QStringLiteral("weights.bin")));
        const float values[] = { 1.5f, -2.0f, 3.25f };
        QVERIFY(data.open(QIODevice::WriteOnly) && data.write(reinterpret_cast<const char*>(values), 12) == 12);
        data.close();
        Graph graph;
        graph.path = dir.filePath(QStringLiteral("model.pb"));
        auto weight = [](const char* name, std::int64_t offset, std::int64_t length, std::int64_t dim) {
            DetachedWeight w;
            w.name = name;
            w.data.type.dtype = "float32";
            w.data.type.dims = { dim };
            w.data.type.rankKnown = true;
            w.data.file = "weights.bin";
            w.data.offset = offset;
            w.data.length = length;
            w.data.encoding = "raw";
            return w;
        };
        graph.detachedWeights = { weight("v/0", 0, 12, 3), weight("short", 0, 8, 3), weight("past", 8, 8, 2) };
        graph.finalize();
        const QList<models::tensor::TensorSeries> series = graphWeightSeries(graph);
        QCOMPARE(series.size(), 1);
        QCOMPARE(series.front().name, QStringLiteral("model.pb: v/0"));
        QVERIFY(series.front().nodeKey.isEmpty());
        QString error;
        const std::vector<double> read = seriesValues(series.front(), error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(read, (std::vector<double> { 1.5, -2.0, 3.25 }));
    }
};

QTEST_GUILESS_MAIN(TestPaddleParams)
#include "tst_paddleparams.moc"
