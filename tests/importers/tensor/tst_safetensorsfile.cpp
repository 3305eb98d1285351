#include "importers/tensor/safetensorsfile.h"

#include "tests/importers/tensor/tst_npzfile_common.h"
#include "tests/testutils.h"

#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <optional>

using namespace runlens;
using namespace runlens::importers::tensor;
using namespace runlens::models;
using namespace runlens::models::tensor;

namespace {

/// A .safetensors file: the header length (the JSON's own unless `length` is given), the JSON, the data.
QByteArray safetensors(const QByteArray& json, const QByteArray& data, std::optional<quint64> length = {})
{
    QByteArray out;
    const quint64 n = length.value_or(quint64(json.size()));
    for (int i = 0; i < 8; ++i)
        out += char((n >> (8 * i)) & 0xff);
    return out + json + data;
}

/// 16 bytes of data, enough for the good entry "a" (F32 [2, 2]) the hostile headers keep beside their bad one.
QByteArray goodData()
{
    QByteArray data;
    for (const float v : { 1.0f, 2.0f, 3.0f, 4.0f })
        data.append(reinterpret_cast<const char*>(&v), sizeof v);
    return data;
}

} // namespace

class TstSafetensorsFile : public QObject
{
    Q_OBJECT

private slots:
    void fixtureMatchesScript()
    {
        const QString file = QStringLiteral("container_tensors.safetensors");
        const QString path = QStringLiteral(RUNLENS_TEST_DATA_DIR "/tensor/") + file;
        const test::ExpectedContainers expected = test::loadExpectedContainers();
        QVERIFY2(expected.loaded, "tests/data/tensor/container_expected.tsv is missing or malformed");
        const QHash<QString, test::ExpectedTensor> entries = expected.tensors.value(file);
        QCOMPARE(entries.size(), 14);

        const TensorListing listing = listSafetensorsFile(path);
        QVERIFY2(listing.error.isEmpty(), qPrintable(listing.error));
        QVERIFY2(listing.diagnostics.isEmpty(), qPrintable(test::diagnosticsText(listing)));
        QCOMPARE(listing.tensors.size(), entries.size());
        const QHash<QString, QString> metadata = expected.metadata.value(file);
        QCOMPARE(listing.metadata.size(), metadata.size());
        for (auto it = metadata.begin(); it != metadata.end(); ++it)
            QCOMPARE(listing.metadata.value(it.key()), it.value());

        std::shared_ptr<const TensorData> shared; // held, so later opens must reuse it
        for (const TensorInfo& info : listing.tensors) {
            QVERIFY2(entries.contains(info.member), qPrintable(info.member));
            const test::ExpectedTensor& want = entries[info.member];
            QCOMPARE(info.format, QStringLiteral("safetensors"));
            QCOMPARE(info.path, QFileInfo(path).absoluteFilePath());
            QCOMPARE(QString::fromLatin1(dtypeName(info.dtype)), want.dtype);
            QCOMPARE(info.shape, want.shape);
            QCOMPARE(info.byteSize, info.elementCount() * itemSize(info.dtype));
            QVERIFY(info.source && info.source->isImmediate());
            const TensorResult opened = info.source->open();
            QVERIFY2(opened.tensor, qPrintable(opened.error));
            const QString mismatch = test::compareValues(*opened.tensor, want.values);
            QVERIFY2(mismatch.isEmpty(), qPrintable(info.member + QStringLiteral(": ") + mismatch));
            // One mapping of the file serves every entry while they are held.
            if (!shared)
                shared = opened.tensor->data;
            QCOMPARE(opened.tensor->data.get(), shared.get());
        }
        // Listed in file order.
        for (int i = 1; i < listing.tensors.size(); ++i) {
            const TensorResult a = listing.tensors[i - 1].source->open();
            const TensorResult b = listing.tensors[i].source->open();
            QVERIFY(a.tensor->offset <= b.tensor->offset);
        }
    }

    void torchStateDict()
    {
        // tests/data/tensor/make_torch_safetensors.py: a torch model's state dict, values summed by torch.
        const QString path = QStringLiteral(RUNLENS_TEST_DATA_DIR "/tensor/torch_model.safetensors");
        QFile expectedFile(QStringLiteral(RUNLENS_TEST_DATA_DIR "/tensor/torch_model_expected.tsv"));
        QVERIFY2(expectedFile.open(QIODevice::ReadOnly), qPrintable(expectedFile.fileName()));
        const QStringList lines = QString::fromUtf8(expectedFile.readAll()).split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 11);

        const TensorListing listing = listSafetensorsFile(path);
        QVERIFY2(listing.error.isEmpty(), qPrintable(listing.error));
        QVERIFY2(listing.diagnostics.isEmpty(), qPrintable(test::diagnosticsText(listing)));
        QCOMPARE(listing.metadata.value(QStringLiteral("format")), QStringLiteral("pt"));
        QCOMPARE(listing.tensors.size(), lines.size());
        for (int i = 0; i < lines.size(); ++i) {
            const QStringList f = lines[i].split(u'\t');
            QCOMPARE(f.size(), 5);
            const TensorInfo& info = listing.tensors[i]; // listed in file order, as the writer laid them out
            QCOMPARE(info.member, f[0]);
            QStringList shape;
            for (const std::int64_t d : info.shape)
                shape << QString::number(d);
            QCOMPARE(shape.join(u','), f[2]);
            QCOMPARE(info.elementCount(), f[3].toLongLong());
            const TensorResult opened = info.source->open();
            QVERIFY2(opened.tensor, qPrintable(opened.error));
            double sum = 0.0;
            for (std::int64_t e = 0; e < info.elementCount(); ++e)
                sum += opened.tensor->value(test::unravelIndex(e, opened.tensor->shape));
            QVERIFY2(qAbs(sum - f[4].toDouble()) <= 1e-6 * qMax(1.0, qAbs(f[4].toDouble())),
                     qPrintable(QStringLiteral("%1: sum %2, torch %3").arg(f[0]).arg(sum, 0, 'g', 17).arg(f[4])));
        }
        const QHash<QString, DType> types { { QStringLiteral("F32"), DType::Float32 },
                                            { QStringLiteral("F16"), DType::Float16 },
                                            { QStringLiteral("BF16"), DType::BFloat16 },
                                            { QStringLiteral("I64"), DType::Int64 } };
        for (int i = 0; i < lines.size(); ++i)
            QCOMPARE(listing.tensors[i].dtype, types.value(lines[i].section(u'\t', 1, 1)));
    }

    void samples()
    {
        // The committed real-writer file always; every .safetensors of the sample corpus when it is there.
        QStringList files { QStringLiteral(RUNLENS_TEST_DATA_DIR "/tensor/torch_model.safetensors") };
        const QString samples = test::samplesDir();
        if (!samples.isEmpty()) {
            QDirIterator it(samples, { QStringLiteral("*.safetensors") }, QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext())
                files << it.next();
        }
        for (const QString& file : files) {
            const TensorListing listing = listSafetensorsFile(file);
            QVERIFY2(listing.error.isEmpty(), qPrintable(listing.error));
            QVERIFY2(listing.diagnostics.isEmpty(), qPrintable(test::diagnosticsText(listing)));
            QVERIFY(!listing.tensors.isEmpty());
            for (const TensorInfo& info : listing.tensors) {
                const TensorResult opened = info.source->open();
                QVERIFY2(opened.tensor, qPrintable(opened.error));
            }
        }
    }

    void hostileHeaders_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("error"); ///< part of the error; empty when the file as a whole is readable
        QTest::addColumn<QString>("diagnostic"); ///< part of the one diagnostic, if any
        QTest::addColumn<int>("tensors");

        const QByteArray data = goodData();
        const QByteArray a = "\"a\":{\"dtype\":\"F32\",\"shape\":[2,2],\"data_offsets\":[0,16]}";
        const auto with = [&](const QByteArray& entry) { return "{" + a + "," + entry + "}"; };

        QTest::newRow("good") << safetensors("{" + a + "}", data) << QString() << QString() << 1;
        QTest::newRow("shorter than the length")
            << QByteArray("\x10\0\0", 3) << QStringLiteral("8-byte") << QString() << 0;
        QTest::newRow("header length beyond the file")
            << safetensors("{" + a + "}", data, 4096) << QStringLiteral("claims 4096 bytes") << QString() << 0;
        QTest::newRow("header length 2^63") << safetensors("{" + a + "}", data, quint64(1) << 63)
                                            << QStringLiteral("9223372036854775808") << QString() << 0;
        QTest::newRow("header length all ones")
            << safetensors("{" + a + "}", data, ~quint64(0)) << QStringLiteral("claims") << QString() << 0;
        QTest::newRow("invalid JSON") << safetensors("{\"a\":{\"dtype\":\"F32\",", data) << QStringLiteral("JSON")
                                      << QString() << 0;
        QTest::newRow("JSON array") << safetensors("[1,2,3]", data) << QStringLiteral("JSON") << QString() << 0;
        QTest::newRow("empty header") << safetensors("", data) << QStringLiteral("JSON") << QString() << 0;
        QTest::newRow("unknown dtype") << safetensors(
            with("\"z\":{\"dtype\":\"C64\",\"shape\":[1],\"data_offsets\":[0,8]}"), data)
                                       << QString() << QStringLiteral("'C64'") << 1;
        QTest::newRow("offsets past the end")
            << safetensors(with("\"z\":{\"dtype\":\"F32\",\"shape\":[4],\"data_offsets\":[16,32]}"), data) << QString()
            << QStringLiteral("past the end") << 1;
        QTest::newRow("offsets beyond int64") << safetensors(
            with("\"z\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[18446744073709551615,0]}"), data)
                                              << QString() << QStringLiteral("data_offsets") << 1;
        QTest::newRow("begin after end") << safetensors(
            with("\"z\":{\"dtype\":\"U8\",\"shape\":[0],\"data_offsets\":[8,4]}"), data)
                                         << QString() << QStringLiteral("begin <= end") << 1;
        QTest::newRow("size mismatch") << safetensors(
            with("\"z\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,8]}"), data)
                                       << QString() << QStringLiteral("need 12") << 1;
        QTest::newRow("shape product overflows int64") << safetensors(
            with("\"z\":{\"dtype\":\"F32\",\"shape\":[4294967296,4294967296,4],\"data_offsets\":[0,16]}"), data)
                                                       << QString() << QStringLiteral("more data than any file") << 1;
        QTest::newRow("negative dimension")
            << safetensors(with("\"z\":{\"dtype\":\"F32\",\"shape\":[-4],\"data_offsets\":[0,16]}"), data) << QString()
            << QStringLiteral("non-negative") << 1;
        QTest::newRow("fractional dimension")
            << safetensors(with("\"z\":{\"dtype\":\"F32\",\"shape\":[2.5],\"data_offsets\":[0,16]}"), data) << QString()
            << QStringLiteral("non-negative") << 1;
        QTest::newRow("missing data_offsets") << safetensors(with("\"z\":{\"dtype\":\"F32\",\"shape\":[4]}"), data)
                                              << QString() << QStringLiteral("lacks") << 1;
        QTest::newRow("entry not an object")
            << safetensors(with("\"z\":[1,2]"), data) << QString() << QStringLiteral("not a JSON object") << 1;
        QTest::newRow("overlapping entries")
            << safetensors(with("\"z\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[8,16]}"), data) << QString()
            << QStringLiteral("share data bytes") << 2;
        // 100000 levels of nesting: a DOM of tens of bytes per header byte, refused before it is built.
        const QByteArray deep = QByteArray(100'000, '[') + QByteArray(100'000, ']');
        QTest::newRow("nested 100000 deep")
            << safetensors(with("\"__metadata__\":" + deep), data) << QStringLiteral("nested deeper than 256")
            << QStringLiteral("Reading stopped") << 0;
        QTest::newRow("metadata value not a string")
            << safetensors(with("\"__metadata__\":{\"step\":12,\"format\":\"pt\"}"), data) << QString()
            << QStringLiteral("'step'") << 1;
    }
    void hostileHeaders()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, error);
        QFETCH(QString, diagnostic);
        QFETCH(int, tensors);
        QTemporaryDir dir;
        const QString path = test::writeFile(dir, QStringLiteral("model.safetensors"), bytes);
        const TensorListing listing = listSafetensorsFile(path);
        if (error.isEmpty()) {
            QVERIFY2(listing.error.isEmpty(), qPrintable(listing.error));
        } else {
            QVERIFY2(listing.error.contains(error), qPrintable(listing.error));
            QVERIFY2(listing.error.contains(QFileInfo(path).absoluteFilePath()), qPrintable(listing.error));
        }
        const QString mismatch = test::diagnosticMismatch(listing, path, diagnostic);
        QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
        QCOMPARE(listing.tensors.size(), tensors);
        for (const TensorInfo& info : listing.tensors) {
            const TensorResult opened = info.source->open();
            QVERIFY2(opened.tensor, qPrintable(opened.error));
            if (info.member == QLatin1String("a")) {
                QCOMPARE(opened.tensor->value({ 1, 1 }), 4.0);
                QCOMPARE(opened.tensor->value({ 0, 1 }), 2.0);
            }
        }
        if (tensors == 2) // overlapping: the second entry views the first's second row
            QCOMPARE(listing.tensors[1].source->open().tensor->value({ 0 }), 3.0);
    }

    void nestingOffsetIsInTheFile()
    {
        const QByteArray prefix = R"({"__metadata__":)";
        const QByteArray bytes = safetensors(prefix + QByteArray(300, '[') + QByteArray(300, ']') + "}", {});
        QTemporaryDir dir;
        const QString path = test::writeFile(dir, QStringLiteral("deep.safetensors"), bytes);
        const TensorListing listing = listSafetensorsFile(path);
        QCOMPARE(listing.diagnostics.size(), 1);
        QCOMPARE(listing.diagnostics[0].severity, Severity::Error);
        // The bracket opening level 257: the object is level 1, so the 256th bracket, after the 8-byte length.
        QCOMPARE(listing.diagnostics[0].offset, qint64(8 + prefix.size() + 255));
    }

    void headerAboveHundredMegabytes()
    {
        // A sparse file large enough that only the 100 MB limit refuses the header.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("huge.safetensors"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(safetensors("{", {}, 100'000'001));
        QVERIFY(file.resize(100'000'100));
        file.close();
        const TensorListing listing = listSafetensorsFile(path);
        QVERIFY2(listing.error.contains(QStringLiteral("100 MB")), qPrintable(listing.error));
        QVERIFY(listing.error.contains(path));
    }

    void fileChangedAfterListing()
    {
        QTemporaryDir dir;
        const QString path = test::writeFile(
            dir, QStringLiteral("m.safetensors"),
            safetensors("{\"a\":{\"dtype\":\"F32\",\"shape\":[2,2],\"data_offsets\":[0,16]}}", goodData()));
        const TensorListing listing = listSafetensorsFile(path);
        QCOMPARE(listing.tensors.size(), 1);
        test::writeFile(dir, QStringLiteral("m.safetensors"), QByteArray("short"));
        const TensorResult opened = listing.tensors[0].source->open();
        QVERIFY(!opened.tensor);
        QVERIFY2(opened.error.contains(path), qPrintable(opened.error));
    }

    void damagedCopiesNeverViewOutsideTheirData()
    {
        for (const QString& name : { QStringLiteral("container_tensors.safetensors") }) {
            QFile file(QStringLiteral(RUNLENS_TEST_DATA_DIR "/tensor/") + name);
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QString problem = test::damagedCopiesStayInside(
                file.readAll(), QStringLiteral("damaged.safetensors"),
                [](const QString& path) { return listSafetensorsFile(path); }, 400);
            QVERIFY2(problem.isEmpty(), qPrintable(name + QStringLiteral(": ") + problem));
        }
    }

    void missingFile()
    {
        const TensorListing listing = listSafetensorsFile(QStringLiteral("/nonexistent/model.safetensors"));
        QVERIFY(listing.tensors.isEmpty());
        QVERIFY2(listing.error.contains(QStringLiteral("/nonexistent/model.safetensors")), qPrintable(listing.error));
    }
};

QTEST_GUILESS_MAIN(TstSafetensorsFile)
#include "tst_safetensorsfile.moc"
