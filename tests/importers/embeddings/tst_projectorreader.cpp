#include "importers/embeddings/projectorreader.h"

#include "importers/core/filesniffer.h"
#include "importers/embeddings/checkpointembedding.h"

#include "tests/pythonoracle.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace runlens;
using namespace runlens::importers;
using namespace runlens::importers::embeddings;
using namespace runlens::models;
using namespace runlens::models::embeddings;

namespace {

const QString kFixture = QStringLiteral(RUNLENS_TEST_DATA_DIR "/embeddings/projector");
const QString kCheckpoint = QStringLiteral(RUNLENS_TEST_DATA_DIR "/embeddings/checkpoint");
const QString kCheckpointCases = QStringLiteral(RUNLENS_TEST_DATA_DIR "/embeddings/checkpoint_cases");
const QString kPrefix = QStringLiteral("model.ckpt-100");

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

bool mentions(const Diagnostics& diagnostics, const QString& file, qint64 line, const QString& text)
{
    for (const Diagnostic& d : diagnostics) {
        if (d.file == file && (line < 0 || d.line == line) && d.message.contains(text))
            return true;
    }
    return false;
}

QString dump(const Diagnostics& diagnostics)
{
    QStringList lines;
    for (const Diagnostic& d : diagnostics)
        lines.append(d.toString());
    return lines.join(QLatin1Char('\n'));
}

} // namespace

class TestProjectorReader : public QObject
{
    Q_OBJECT
private slots:
    void readsTorchFixture();
    void sniffsTheConfigByName();
    void metadataWithAndWithoutHeader_data();
    void metadataWithAndWithoutHeader();
    void badNumberNamesFileAndLine();
    void raggedLineEndsTable();
    void limitsCutRowsAndDims();
    void configVariants();
    void missingFilesAreReported();
    void readsCheckpointTensors();
    void findsTheCheckpoint();
    void checkpointCasesAreCheckedOneByOne();
    void missingCheckpointIsReported();
    void truncatedShardIsReported();
    void convertsTensorBytes();
};

void TestProjectorReader::readsTorchFixture()
{
    const ProjectorReadResult result = readProjectorFolder(kFixture + QStringLiteral("/projector_config.pbtxt"));
    QVERIFY2(result.diagnostics.isEmpty(), qPrintable(dump(result.diagnostics)));
    QCOMPARE(int(result.sets.size()), 2);
    const EmbeddingSet& features = *result.sets[0];
    QCOMPARE(features.name, QStringLiteral("features:00000"));
    QCOMPARE(features.rows, 60);
    QCOMPARE(features.dims, 16);
    QCOMPARE(features.metadataColumns, (QStringList { QStringLiteral("class"), QStringLiteral("score") }));
    QCOMPARE(features.cell(0, 0), QStringLiteral("class0"));
    QCOMPARE(features.cell(59, 1), QStringLiteral("29.5"));
    QVERIFY(features.hasSprite());
    QCOMPARE(features.spriteImageSize, QSize(8, 8));
    QVERIFY(features.spritePath.endsWith(QStringLiteral("00000/features/sprite.png")));
    // First value of tensors.tsv, as torch wrote it.
    QCOMPARE(features.values[0], -3.458730697631836f);

    const EmbeddingSet& words = *result.sets[1];
    QCOMPARE(words.name, QStringLiteral("words:00003"));
    QCOMPARE(words.rows, 12);
    QCOMPARE(words.dims, 4);
    QCOMPARE(words.metadataColumns.size(), 1);
    QCOMPARE(words.cell(0, 0), QStringLiteral("word0"));
    QCOMPARE(words.cell(11, 0), QStringLiteral("word11"));
    QVERIFY(!words.hasSprite());

    ProjectorImporter importer(kFixture + QStringLiteral("/projector_config.pbtxt"));
    const ImportUpdate update = importer.poll({});
    QCOMPARE(update.status, ImportStatus::Ok);
    QVERIFY(update.embeddingSummaries);
    QCOMPARE(update.embeddingSummaries->size(), 2);
    QCOMPARE(update.embeddingSummaries->first().points, 60);
    QVERIFY(update.embeddingSummaries->first().sprite);
}

void TestProjectorReader::sniffsTheConfigByName()
{
    QFile file(kFixture + QStringLiteral("/projector_config.pbtxt"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray head = file.readAll();
    const SniffResult result = FileSniffer::sniff("projector_config.pbtxt", "run",
                                                  std::string_view(head.constData(), head.size()), head.size());
    QCOMPARE(result.kind, ArtifactKind::EmbeddingProjector);
    QCOMPARE(artifactKindId(result.kind), QStringLiteral("tensorboard-projector"));
}

void TestProjectorReader::metadataWithAndWithoutHeader_data()
{
    QTest::addColumn<QByteArray>("metadata");
    QTest::addColumn<QStringList>("columns");
    QTest::addColumn<QString>("lastCell");
    QTest::addColumn<int>("warnings");
    QTest::newRow("single column, no header")
        << QByteArray("a\nb\nc\n") << QStringList { QStringLiteral("label") } << QStringLiteral("c") << 0;
    QTest::newRow("header row") << QByteArray("name\tkind\na\tx\nb\ty\nc\tz\n")
                                << QStringList { QStringLiteral("name"), QStringLiteral("kind") } << QStringLiteral("c")
                                << 0;
    QTest::newRow("CRLF, no final newline")
        << QByteArray("name\tkind\r\na\tx\r\nb\ty\r\nc\tz")
        << QStringList { QStringLiteral("name"), QStringLiteral("kind") } << QStringLiteral("c") << 0;
    QTest::newRow("too few rows") << QByteArray("a\nb\n") << QStringList { QStringLiteral("label") } << QString() << 1;
    QTest::newRow("too many rows") << QByteArray("a\nb\nc\nd\n") << QStringList { QStringLiteral("label") }
                                   << QStringLiteral("c") << 1;
    QTest::newRow("short row") << QByteArray("name\tkind\na\tx\nb\nc\tz\n")
                               << QStringList { QStringLiteral("name"), QStringLiteral("kind") } << QStringLiteral("c")
                               << 1;
}

void TestProjectorReader::metadataWithAndWithoutHeader()
{
    QFETCH(QByteArray, metadata);
    QFETCH(QStringList, columns);
    QFETCH(QString, lastCell);
    QFETCH(int, warnings);
    EmbeddingSet set;
    set.rows = 3;
    set.dims = 1;
    set.values = { 1, 2, 3 };
    Diagnostics diagnostics;
    parseMetadataTsv(metadata, QStringLiteral("/x/metadata.tsv"), set, diagnostics);
    QCOMPARE(set.metadataColumns, columns);
    QCOMPARE(int(set.metadata.size()), 3);
    QCOMPARE(set.cell(2, 0), lastCell);
    QCOMPARE(diagnostics.size(), warnings);
    for (const QStringList& row : set.metadata)
        QCOMPARE(row.size(), columns.size());
}

void TestProjectorReader::badNumberNamesFileAndLine()
{
    EmbeddingSet set;
    Diagnostics diagnostics;
    const QString path = QStringLiteral("/data/tensors.tsv");
    parseTensorsTsv("1\t2\n3\tx4\n5\tnan\n7\t8\n", path, {}, set, diagnostics);
    QCOMPARE(set.rows, 4);
    QCOMPARE(set.dims, 2);
    QCOMPARE(set.values, (std::vector<float> { 1, 2, 3, 0, 5, 0, 7, 8 }));
    QVERIFY2(mentions(diagnostics, path, 2, QStringLiteral("x4")), qPrintable(dump(diagnostics)));
    QVERIFY2(mentions(diagnostics, path, 3, QStringLiteral("nan")), qPrintable(dump(diagnostics)));
    QVERIFY(diagnostics.first().toString().contains(path));
}

void TestProjectorReader::raggedLineEndsTable()
{
    EmbeddingSet set;
    Diagnostics diagnostics;
    const QString path = QStringLiteral("/data/tensors.tsv");
    parseTensorsTsv("1\t2\n3\t4\n5\n7\t8\n", path, {}, set, diagnostics);
    QCOMPARE(set.rows, 2);
    QCOMPARE(diagnostics.size(), 1);
    QCOMPARE(diagnostics.first().line, 3);
}

void TestProjectorReader::limitsCutRowsAndDims()
{
    ProjectorLimits limits;
    limits.maxRows = 2;
    limits.maxDims = 3;
    EmbeddingSet set;
    Diagnostics diagnostics;
    const QString path = QStringLiteral("/data/big.tsv");
    parseTensorsTsv("1\t2\t3\t4\n5\t6\t7\t8\n9\t10\t11\t12\n", path, limits, set, diagnostics);
    QCOMPARE(set.rows, 2);
    QCOMPARE(set.dims, 3);
    QCOMPARE(set.values, (std::vector<float> { 1, 2, 3, 5, 6, 7 }));
    QVERIFY2(mentions(diagnostics, path, 1, QStringLiteral("dimensions")), qPrintable(dump(diagnostics)));
    QVERIFY2(mentions(diagnostics, path, 3, QStringLiteral("points")), qPrintable(dump(diagnostics)));
}

void TestProjectorReader::configVariants()
{
    Diagnostics diagnostics;
    const QString path = QStringLiteral("/c/projector_config.pbtxt");
    // Angle brackets, a list value, comments, single quotes and escapes are all text format.
    const ProjectorConfig config = parseProjectorConfig(
        "# written by hand\nmodel_checkpoint_path: 'ckpt'\nembeddings <\n  tensor_name: \"a\\\"b\"\n"
        "  tensor_path: 't.tsv'\n  sprite { image_path: 's.png' single_image_dim: [28, 14] }\n>\n"
        "embeddings { tensor_name: 'second' }\n",
        path, diagnostics);
    QVERIFY2(diagnostics.isEmpty(), qPrintable(dump(diagnostics)));
    QCOMPARE(config.modelCheckpointPath, QStringLiteral("ckpt"));
    QCOMPARE(int(config.embeddings.size()), 2);
    QCOMPARE(config.embeddings[0].tensorName, QStringLiteral("a\"b"));
    QCOMPARE(config.embeddings[0].spriteImageSize, QSize(28, 14));
    QCOMPARE(config.embeddings[1].tensorName, QStringLiteral("second"));

    Diagnostics broken;
    const ProjectorConfig partial = parseProjectorConfig(
        "embeddings {\n tensor_path: 'a.tsv'\n}\nembeddings {\n tensor_path: 'b.tsv\n}\n", path, broken);
    QCOMPARE(int(partial.embeddings.size()), 2);
    QCOMPARE(partial.embeddings[0].tensorPath, QStringLiteral("a.tsv"));
    QVERIFY(!broken.isEmpty());
    QCOMPARE(broken.first().line, 5);
}

void TestProjectorReader::missingFilesAreReported()
{
    QTemporaryDir dir;
    const QString config = dir.filePath(QStringLiteral("projector_config.pbtxt"));
    QVERIFY(writeFile(config,
                      "embeddings { tensor_name: 'a' tensor_path: 'missing.tsv' }\n"
                      "embeddings { tensor_name: 'b' tensor_path: 'b/t.tsv' metadata_path: 'b/m.tsv' "
                      "sprite { image_path: 'b/s.png' } }\n"
                      "embeddings { tensor_name: 'c' }\n"));
    QVERIFY(writeFile(dir.filePath(QStringLiteral("b/t.tsv")), "1\t2\n3\t4\n"));
    const ProjectorReadResult result = readProjectorFolder(config);
    QCOMPARE(int(result.sets.size()), 1);
    QCOMPARE(result.sets[0]->name, QStringLiteral("b"));
    QVERIFY(!result.sets[0]->hasMetadata());
    QVERIFY2(
        mentions(result.diagnostics, dir.filePath(QStringLiteral("missing.tsv")), -1, QStringLiteral("cannot open")),
        qPrintable(dump(result.diagnostics)));
    QVERIFY(mentions(result.diagnostics, dir.filePath(QStringLiteral("b/m.tsv")), -1, QStringLiteral("cannot open")));
    QVERIFY(mentions(result.diagnostics, dir.filePath(QStringLiteral("b/s.png")), -1, QStringLiteral("sprite")));
    QVERIFY(mentions(result.diagnostics, config, -1, QStringLiteral("tensor_path")));

    ProjectorImporter importer(config);
    QCOMPARE(importer.poll({}).status, ImportStatus::Partial);
    ProjectorImporter absent(dir.filePath(QStringLiteral("nothing.pbtxt")));
    QCOMPARE(absent.poll({}).status, ImportStatus::Failed);
}

namespace {

/// The oracle's reading of `name`: numpy at the offset make_checkpoint_fixture.py lays the tensor at.
test::PythonRun oracleTensor(const QString& folder, const QString& name)
{
    return test::runPythonScript(QStringLiteral("embeddings/make_checkpoint_fixture.py"),
                                 { QStringLiteral("--oracle"), folder, name });
}

QJsonObject oracleJson(const test::PythonRun& run)
{
    return QJsonDocument::fromJson(run.output.toUtf8()).object();
}

const EmbeddingSet* setNamed(const ProjectorReadResult& result, const QString& name)
{
    for (const EmbeddingSetPtr& set : result.sets)
        if (set->name == name)
            return set.get();
    return nullptr;
}

/// Compares every value of `set` with the oracle's.
void compareWithOracle(const EmbeddingSet& set, const QJsonObject& oracle)
{
    QCOMPARE(set.rows, oracle[QStringLiteral("rows")].toInt());
    QCOMPARE(set.dims, oracle[QStringLiteral("dims")].toInt());
    const QJsonArray values = oracle[QStringLiteral("values")].toArray();
    QCOMPARE(qsizetype(set.values.size()), values.size());
    for (qsizetype i = 0; i < values.size(); ++i)
        QCOMPARE(set.values[std::size_t(i)], float(values[i].toDouble()));
}

} // namespace

void TestProjectorReader::readsCheckpointTensors()
{
    // No model_checkpoint_path: the `checkpoint` file beside the config names the prefix, as in a log dir.
    const QString config = kCheckpoint + QStringLiteral("/projector_config.pbtxt");
    const ProjectorReadResult result = readProjectorFolder(config);
    QVERIFY2(result.diagnostics.isEmpty(), qPrintable(dump(result.diagnostics)));
    QCOMPARE(int(result.sets.size()), 2);

    const test::PythonRun weightsOracle = oracleTensor(kCheckpoint, QStringLiteral("embedding/weights"));
    RUNLENS_VERIFY_PYTHON(weightsOracle);
    const test::PythonRun wordsOracle = oracleTensor(kCheckpoint, QStringLiteral("word_embedding/embeddings"));
    RUNLENS_VERIFY_PYTHON(wordsOracle);
    // The exact checkpoint key: a TF1 Saver name, float32 60 x 16.
    const EmbeddingSet* weights = setNamed(result, QStringLiteral("embedding/weights"));
    QVERIFY(weights);
    QCOMPARE(weights->rows, 60);
    QCOMPARE(weights->dims, 16);
    compareWithOracle(*weights, oracleJson(weightsOracle));
    QCOMPARE(weights->source, kCheckpoint + QStringLiteral("/model.ckpt-100.data-00000-of-00001"));
    QCOMPARE(weights->metadataColumns, (QStringList { QStringLiteral("cluster"), QStringLiteral("index") }));
    QCOMPARE(weights->cell(0, 0), QStringLiteral("cluster0"));
    QCOMPARE(weights->cell(59, 0), QStringLiteral("cluster2"));
    QCOMPARE(weights->cell(59, 1), QStringLiteral("59"));

    // The TF2 object-based key: "<name>/.ATTRIBUTES/VARIABLE_VALUE", float64 converted to float rows.
    const EmbeddingSet* words = setNamed(result, QStringLiteral("word_embedding/embeddings"));
    QVERIFY(words);
    compareWithOracle(*words, oracleJson(wordsOracle));
    QCOMPARE(words->rows, 24);
    QCOMPARE(words->dims, 5);
    QCOMPARE(words->metadataColumns.size(), 1);
    QCOMPARE(words->cell(23, 0), QStringLiteral("word23"));

    ProjectorImporter importer(config);
    const ImportUpdate update = importer.poll({});
    QCOMPARE(update.status, ImportStatus::Ok);
    QVERIFY(update.embeddingSummaries);
    QCOMPARE(update.embeddingSummaries->first().points, 60);
    QCOMPARE(update.embeddingSummaries->first().dims, 16);
}

void TestProjectorReader::findsTheCheckpoint()
{
    // model_checkpoint_path as a prefix, as the .index file, and as a folder; a ":0" tensor name.
    const QStringList paths { kCheckpoint + QLatin1Char('/') + kPrefix,
                              kCheckpoint + QLatin1Char('/') + kPrefix + QStringLiteral(".index"), kCheckpoint };
    for (const QString& path : paths) {
        QTemporaryDir dir;
        const QString config = dir.filePath(QStringLiteral("projector_config.pbtxt"));
        QVERIFY(writeFile(config,
                          "model_checkpoint_path: '" + path.toUtf8()
                              + "'\nembeddings { tensor_name: 'embedding/weights:0' }\n"));
        const ProjectorReadResult result = readProjectorFolder(config);
        QVERIFY2(result.diagnostics.isEmpty(), qPrintable(path + QLatin1Char('\n') + dump(result.diagnostics)));
        QCOMPARE(int(result.sets.size()), 1);
        QCOMPARE(result.sets[0]->rows, 60);
    }
    // model_checkpoint_dir, relative to the config's folder.
    QTemporaryDir dir;
    const QString config = dir.filePath(QStringLiteral("plugins/projector/projector_config.pbtxt"));
    QVERIFY(
        writeFile(config,
                  "model_checkpoint_dir: '"
                      + QDir(dir.filePath(QStringLiteral("plugins/projector"))).relativeFilePath(kCheckpoint).toUtf8()
                      + "'\nembeddings { tensor_name: 'word_embedding/embeddings' }\n"));
    ProjectorReadResult result = readProjectorFolder(config);
    QVERIFY2(result.diagnostics.isEmpty(), qPrintable(dump(result.diagnostics)));
    QCOMPARE(int(result.sets.size()), 1);
    // The log dir of `<logdir>/plugins/projector` is two levels up: its `checkpoint` file is used.
    QVERIFY(writeFile(config, "embeddings { tensor_name: 'embedding/weights' }\n"));
    QVERIFY(writeFile(dir.filePath(QStringLiteral("checkpoint")),
                      "model_checkpoint_path: \"" + (kCheckpoint + QLatin1Char('/') + kPrefix).toUtf8() + "\"\n"));
    result = readProjectorFolder(config);
    QVERIFY2(result.diagnostics.isEmpty(), qPrintable(dump(result.diagnostics)));
    QCOMPARE(int(result.sets.size()), 1);

    QCOMPARE(checkpointStatePath("model_checkpoint_path: \"a\\\"b\"\nall_model_checkpoint_paths: \"x\"\n"),
             QStringLiteral("a\"b"));
    QCOMPARE(checkpointStatePath("all_model_checkpoint_paths: \"x\"\n"), QString());
}

void TestProjectorReader::checkpointCasesAreCheckedOneByOne()
{
    // One bundle with odd and damaged entries; each is judged on its own and the good ones are kept.
    const QString config = kCheckpointCases + QStringLiteral("/projector_config.pbtxt");
    const ProjectorReadResult result = readProjectorFolder(config);
    const QString index = kCheckpointCases + QLatin1Char('/') + kPrefix + QStringLiteral(".index");
    const QString shard = kCheckpointCases + QLatin1Char('/') + kPrefix + QStringLiteral(".data-00000-of-00001");
    QStringList names;
    for (const EmbeddingSetPtr& set : result.sets)
        names.append(set->name);
    QCOMPARE(names,
             (QStringList { QStringLiteral("half"), QStringLiteral("bf16"), QStringLiteral("int32"),
                            QStringLiteral("uint8"), QStringLiteral("bad_crc"), QStringLiteral("no_crc") }));
    const QString all = dump(result.diagnostics);
    QVERIFY2(mentions(result.diagnostics, index, -1, QStringLiteral("bias has the shape float32[7]")), qPrintable(all));
    QVERIFY2(mentions(result.diagnostics, index, -1, QStringLiteral("cube has the shape float32[2,3,4]")),
             qPrintable(all));
    QVERIFY2(mentions(result.diagnostics, index, -1, QStringLiteral("bad_size 60 bytes")), qPrintable(all));
    QVERIFY2(mentions(result.diagnostics, shard, -1, QStringLiteral("bad_crc do not match the CRC-32C")),
             qPrintable(all));
    QVERIFY2(mentions(result.diagnostics, index, -1, QStringLiteral("huge is 1099511627776 points x 1048576")),
             qPrintable(all));
    QVERIFY2(mentions(result.diagnostics, index, -1, QStringLiteral("wide is 2 points x 100000 dimensions")),
             qPrintable(all));
    QVERIFY2(mentions(result.diagnostics, shard, -1, QStringLiteral("beyond lies at bytes 1048576")), qPrintable(all));
    QVERIFY2(mentions(result.diagnostics, index, -1, QStringLiteral("names is of type string")), qPrintable(all));
    QVERIFY2(mentions(result.diagnostics, index, -1, QStringLiteral("absent is not in the checkpoint")),
             qPrintable(all));
    QVERIFY2(mentions(result.diagnostics, index, -1, QStringLiteral("among them bad_crc, bad_size")), qPrintable(all));
    for (const Diagnostic& d : result.diagnostics) {
        if (d.message.contains(QLatin1String("CRC")))
            QCOMPARE(d.severity, Severity::Warning);
        else
            QCOMPARE(d.severity, Severity::Error);
    }
    QCOMPARE(result.diagnostics.size(), 9);

    for (const QString& name :
         { QStringLiteral("half"), QStringLiteral("bf16"), QStringLiteral("int32"), QStringLiteral("uint8") }) {
        const test::PythonRun oracle = oracleTensor(kCheckpointCases, name);
        RUNLENS_VERIFY_PYTHON(oracle);
        const EmbeddingSet* set = setNamed(result, name);
        QVERIFY(set);
        compareWithOracle(*set, oracleJson(oracle));
    }
    QCOMPARE(setNamed(result, QStringLiteral("int32"))->values.front(), -4.0f);
    // The CRC mismatch is a warning; the values are still those of the file, equal to the intact copy's.
    QCOMPARE(setNamed(result, QStringLiteral("bad_crc"))->values, setNamed(result, QStringLiteral("no_crc"))->values);
}

void TestProjectorReader::missingCheckpointIsReported()
{
    QTemporaryDir dir;
    const QString config = dir.filePath(QStringLiteral("run/projector_config.pbtxt"));
    QVERIFY(writeFile(dir.filePath(QStringLiteral("run/t.tsv")), "1\t2\n3\t4\n"));
    // A prefix that is not there: named with the file looked for; the TSV embedding is kept.
    QVERIFY(writeFile(config,
                      "model_checkpoint_path: 'gone/model.ckpt-5'\n"
                      "embeddings { tensor_name: 'emb' }\nembeddings { tensor_name: 't' tensor_path: 't.tsv' }\n"));
    ProjectorReadResult result = readProjectorFolder(config);
    QCOMPARE(int(result.sets.size()), 1);
    QCOMPARE(result.sets[0]->name, QStringLiteral("t"));
    QVERIFY2(mentions(result.diagnostics, config, -1, QStringLiteral("gone/model.ckpt-5.index does not exist")),
             qPrintable(dump(result.diagnostics)));
    QVERIFY(mentions(result.diagnostics, config, -1, QStringLiteral("embedding emb has no tensor_path")));

    // No path and no `checkpoint` file: the files looked for are named.
    QVERIFY(writeFile(config, "embeddings { tensor_name: 'emb' }\n"));
    result = readProjectorFolder(config);
    QVERIFY(result.sets.empty());
    QVERIFY2(mentions(result.diagnostics, config, -1, dir.filePath(QStringLiteral("run/checkpoint"))),
             qPrintable(dump(result.diagnostics)));
    QCOMPARE(ProjectorImporter(config).poll({}).status, ImportStatus::Failed);

    // A `checkpoint` file naming a prefix whose index is gone.
    QVERIFY(writeFile(dir.filePath(QStringLiteral("run/checkpoint")), "model_checkpoint_path: \"model.ckpt-9\"\n"));
    result = readProjectorFolder(config);
    QVERIFY2(mentions(result.diagnostics, dir.filePath(QStringLiteral("run/checkpoint")), -1,
                      QStringLiteral("model.ckpt-9.index does not exist")),
             qPrintable(dump(result.diagnostics)));

    // An index that is not a table.
    QVERIFY(writeFile(dir.filePath(QStringLiteral("run/model.ckpt-9.index")), QByteArray(300, 'x')));
    result = readProjectorFolder(config);
    QVERIFY2(mentions(result.diagnostics, dir.filePath(QStringLiteral("run/model.ckpt-9.index")), -1,
                      QStringLiteral("damaged")),
             qPrintable(dump(result.diagnostics)));
}

void TestProjectorReader::truncatedShardIsReported()
{
    QTemporaryDir dir;
    for (const QString& name : QDir(kCheckpoint).entryList(QDir::Files))
        QVERIFY(QFile::copy(kCheckpoint + QLatin1Char('/') + name, dir.filePath(name)));
    const QString shard = dir.filePath(kPrefix + QStringLiteral(".data-00000-of-00001"));
    // Cut inside word_embedding (bytes 3904 to 4864); embedding/weights (0 to 3840) is whole.
    QVERIFY(QFile::resize(shard, 4000));
    const ProjectorReadResult result = readProjectorFolder(dir.filePath(QStringLiteral("projector_config.pbtxt")));
    QCOMPARE(int(result.sets.size()), 1);
    QCOMPARE(result.sets[0]->name, QStringLiteral("embedding/weights"));
    QVERIFY2(mentions(result.diagnostics, shard, -1,
                      QStringLiteral("the file is 4000 bytes, but word_embedding/embeddings/.ATTRIBUTES/"
                                     "VARIABLE_VALUE lies at bytes 3904 to 4864")),
             qPrintable(dump(result.diagnostics)));
    // Without the data file at all.
    QVERIFY(QFile::remove(shard));
    const ProjectorReadResult none = readProjectorFolder(dir.filePath(QStringLiteral("projector_config.pbtxt")));
    QVERIFY(none.sets.empty());
    QVERIFY2(mentions(none.diagnostics, shard, -1, QStringLiteral("cannot open")), qPrintable(dump(none.diagnostics)));
}

void TestProjectorReader::convertsTensorBytes()
{
    std::vector<float> out;
    qint64 nonFinite = 0;
    // float16: 1.0, -2.0, the smallest subnormal, +inf (reads as 0).
    const char half[] = { 0x00, 0x3c, 0x00, char(0xc0), 0x01, 0x00, 0x00, 0x7c };
    QVERIFY(tensorBytesToFloats("float16", std::string_view(half, 8), out, nonFinite));
    QCOMPARE(out, (std::vector<float> { 1.0f, -2.0f, std::ldexp(1.0f, -24), 0.0f }));
    QCOMPARE(nonFinite, qint64(1));
    // A float64 beyond float's range reads as 0 too.
    const double wide[] = { 1e300, -0.5 };
    nonFinite = 0;
    QVERIFY(tensorBytesToFloats("float64", std::string_view(reinterpret_cast<const char*>(wide), 16), out, nonFinite));
    QCOMPARE(out, (std::vector<float> { 0.0f, -0.5f }));
    QCOMPARE(nonFinite, qint64(1));
    QVERIFY(!tensorBytesToFloats("string", "abcd", out, nonFinite));
    QVERIFY(!tensorBytesToFloats("float32", "abc", out, nonFinite));
    QVERIFY(tensorBytesToFloats("int64", std::string_view("\xff\xff\xff\xff\xff\xff\xff\xff", 8), out, nonFinite));
    QCOMPARE(out, std::vector<float> { -1.0f });
}

QTEST_GUILESS_MAIN(TestProjectorReader)
#include "tst_projectorreader.moc"
