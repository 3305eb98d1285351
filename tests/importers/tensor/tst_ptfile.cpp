#include "importers/tensor/ptfile.h"

#include "importers/memory/safepickle.h"
#include "tests/importers/tensor/tst_npzfile_common.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <zip.h>

#include <cmath>

using namespace runlens;
using namespace runlens::importers::tensor;
using namespace runlens::models::tensor;

namespace {

QString fixture(const QString& name)
{
    return QStringLiteral(RUNLENS_TEST_DATA_DIR "/torchsave/") + name;
}

/// What torch.load read from each fixture (tests/data/torchsave/expected.json, by make_pt_fixtures.py).
QJsonObject expectedFor(const QString& name)
{
    QFile file(fixture(QStringLiteral("expected.json")));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object().value(name).toObject();
}

/// Every element of `tensor` in C order.
std::vector<double> valuesOf(const Tensor& tensor)
{
    std::vector<double> values;
    const std::int64_t count = tensor.elementCount();
    std::vector<std::int64_t> index(std::size_t(tensor.rank()), 0);
    for (std::int64_t i = 0; i < count; ++i) {
        values.push_back(tensor.value(index));
        for (int d = tensor.rank() - 1; d >= 0; --d) {
            if (++index[std::size_t(d)] < tensor.shape[std::size_t(d)])
                break;
            index[std::size_t(d)] = 0;
        }
    }
    return values;
}

const TensorInfo* find(const TensorListing& listing, const QString& member)
{
    for (const TensorInfo& info : listing.tensors) {
        if (info.member == member)
            return &info;
    }
    return nullptr;
}

/// A torch.save-like archive at `path`: `folder/data.pkl` and the `folder/data/<key>` records, all stored.
bool writeArchive(const QString& path, const QByteArray& pickle, const QMap<QString, QByteArray>& storages)
{
    int code = 0;
    zip_t* archive = zip_open(QFile::encodeName(path).constData(), ZIP_CREATE | ZIP_TRUNCATE, &code);
    if (!archive)
        return false;
    // libzip copies nothing until zip_close(): the buffers must outlive it.
    QList<QByteArray> keep;
    const auto add = [&](const QString& name, const QByteArray& bytes) {
        keep << bytes;
        zip_source_t* source = zip_source_buffer(archive, keep.last().constData(), zip_uint64_t(bytes.size()), 0);
        const zip_int64_t index = zip_file_add(archive, name.toUtf8().constData(), source, ZIP_FL_ENC_UTF_8);
        return index >= 0 && zip_set_file_compression(archive, zip_uint64_t(index), ZIP_CM_STORE, 0) == 0;
    };
    bool ok = add(QStringLiteral("archive/data.pkl"), pickle);
    for (auto it = storages.begin(); it != storages.end(); ++it)
        ok = ok && add(QStringLiteral("archive/data/") + it.key(), it.value());
    if (!ok) {
        zip_discard(archive);
        return false;
    }
    return zip_close(archive) == 0;
}

/// A BINUNICODE string.
QByteArray unicode(const QByteArray& text)
{
    QByteArray out("X");
    for (int i = 0; i < 4; ++i)
        out += char((text.size() >> (8 * i)) & 0xff);
    return out + text;
}

/// The opcodes of one float32 tensor of `count` elements over storage "0", as torch.save writes them.
QByteArray tensorOps(int count)
{
    return QByteArray("ctorch._utils\n_rebuild_tensor_v2\n((") + unicode("storage") + "ctorch\nFloatStorage\n"
        + unicode("0") + unicode("cpu") + "K" + char(count) + "tQ" + QByteArray("K\0K", 3) + char(count)
        + "\x85K\x01\x85\x89" + "ccollections\nOrderedDict\n)RtR";
}

QString errorsText(const TensorListing& listing)
{
    return listing.error + QLatin1Char('\n') + test::diagnosticsText(listing);
}

} // namespace

class TstPtFile : public QObject
{
    Q_OBJECT

private slots:
    void matchesTorch_data()
    {
        QTest::addColumn<QString>("file");
        for (const char* name : { "single.pt", "model_state.pth", "halves.pt", "transposed.pt", "shared.pt",
                                  "checkpoint.pt", "rebuild_v3.pt" })
            QTest::newRow(name) << QString::fromLatin1(name);
    }

    void matchesTorch()
    {
        QFETCH(QString, file);
        const QJsonObject expected = expectedFor(file);
        QVERIFY2(!expected.isEmpty(), "tests/data/torchsave/expected.json is missing or lacks the file");

        const TensorListing listing = listPtFile(fixture(file));
        QVERIFY2(listing.error.isEmpty(), qPrintable(listing.error));
        QVERIFY2(listing.diagnostics.isEmpty(), qPrintable(test::diagnosticsText(listing)));
        QCOMPARE(listing.tensors.size(), expected.size());
        for (const TensorInfo& info : listing.tensors) {
            QVERIFY2(expected.contains(info.member), qPrintable(info.member));
            const QJsonObject want = expected.value(info.member).toObject();
            QCOMPARE(info.format, QStringLiteral("pt"));
            QCOMPARE(info.path, QFileInfo(fixture(file)).absoluteFilePath());
            QCOMPARE(QString::fromLatin1(dtypeName(info.dtype)), want.value(QStringLiteral("dtype")).toString());
            std::vector<std::int64_t> shape;
            for (const QJsonValue& v : want.value(QStringLiteral("shape")).toArray())
                shape.push_back(v.toInteger());
            QCOMPARE(info.shape, shape);
            const TensorResult opened = info.source->open();
            QVERIFY2(opened.tensor, qPrintable(opened.error));
            const std::vector<double> got = valuesOf(*opened.tensor);
            const QJsonArray values = want.value(QStringLiteral("values")).toArray();
            QCOMPARE(qsizetype(got.size()), values.size());
            for (qsizetype i = 0; i < values.size(); ++i) {
                // Every dtype here converts to double exactly, in torch as here.
                if (got[std::size_t(i)] != values[i].toDouble())
                    QFAIL(qPrintable(QStringLiteral("%1[%2]: %3, torch read %4")
                                         .arg(info.member)
                                         .arg(i)
                                         .arg(got[std::size_t(i)])
                                         .arg(values[i].toDouble())));
            }
        }
    }

    void singleTensorIsTheFile()
    {
        const TensorListing listing = listPtFile(fixture(QStringLiteral("single.pt")));
        QCOMPARE(listing.tensors.size(), 1);
        QCOMPARE(listing.tensors[0].member, QString());
        QVERIFY(listing.tensors[0].source->isImmediate());
    }

    void viewsAndSharedStorages()
    {
        const TensorListing transposed = listPtFile(fixture(QStringLiteral("transposed.pt")));
        QCOMPARE(transposed.tensors.size(), 1);
        QVERIFY2(transposed.tensors[0].note.contains(QLatin1String("strides [1, 3]")),
                 qPrintable(transposed.tensors[0].note));
        const TensorResult opened = transposed.tensors[0].source->open();
        QVERIFY(opened.tensor && opened.tensor->isContiguous());

        const TensorListing shared = listPtFile(fixture(QStringLiteral("shared.pt")));
        const TensorInfo* w = find(shared, QStringLiteral("w"));
        const TensorInfo* everyOther = find(shared, QStringLiteral("every_other"));
        QVERIFY(w && everyOther);
        QVERIFY2(w->note.contains(QLatin1String("shares storage data/0 with 2 other")), qPrintable(w->note));
        QVERIFY(w->source->isImmediate()); // an offset into the storage, read in place
        QVERIFY(!everyOther->source->isImmediate()); // stride 2: copied out
    }

    void checkpointKeepsPlainValuesAsMetadata()
    {
        const TensorListing listing = listPtFile(fixture(QStringLiteral("checkpoint.pt")));
        QCOMPARE(listing.metadata.value(QStringLiteral("epoch")), QStringLiteral("3"));
        QCOMPARE(listing.metadata.value(QStringLiteral("losses.1")), QStringLiteral("0.25"));
        QCOMPARE(listing.metadata.value(QStringLiteral("optimizer.param_groups.0.lr")), QStringLiteral("0.1"));
        QVERIFY(find(listing, QStringLiteral("optimizer.state.0.momentum_buffer")));
        QVERIFY(find(listing, QStringLiteral("model.bn.num_batches_tracked")));
    }

    void forbiddenGlobalIsRefusedByName()
    {
        const QString path = fixture(QStringLiteral("forbidden_global.pt"));
        const TensorListing listing = listPtFile(path);
        QVERIFY(listing.tensors.isEmpty());
        QVERIFY2(listing.error.contains(QLatin1String("os.system")), qPrintable(listing.error));
        QVERIFY2(listing.error.contains(QFileInfo(path).absoluteFilePath()), qPrintable(listing.error));
        QVERIFY2(listing.error.contains(QLatin1String("refused")), qPrintable(listing.error));
    }

    void legacyFormatIsNamed()
    {
        const TensorListing listing = listPtFile(fixture(QStringLiteral("legacy.pt")));
        QVERIFY(listing.tensors.isEmpty());
        QVERIFY2(listing.error.contains(QLatin1String("legacy format")), qPrintable(listing.error));
    }

    void stridesOfIdleDimensionsAreHarmless()
    {
        // torch loads these: a stride of 2^62 on an extent-1 dimension and on an empty tensor is never used.
        const TensorListing listing = listPtFile(fixture(QStringLiteral("idle_strides.pt")));
        QVERIFY2(listing.error.isEmpty() && listing.diagnostics.isEmpty(), qPrintable(errorsText(listing)));
        QCOMPARE(listing.tensors.size(), 2);
        const TensorResult ok = find(listing, QStringLiteral("ok"))->source->open();
        QVERIFY(ok.tensor);
        QCOMPARE(valuesOf(*ok.tensor), (std::vector<double> { 1, 2, 3, 4 }));
        const TensorResult empty = find(listing, QStringLiteral("empty"))->source->open();
        QVERIFY(empty.tensor);
        QCOMPARE(empty.tensor->elementCount(), 0);
    }

    void bigEndianIsRefused()
    {
        const TensorListing listing = listPtFile(fixture(QStringLiteral("big_endian.pt")));
        QVERIFY(listing.tensors.isEmpty());
        QVERIFY2(listing.error.contains(QLatin1String("big-endian")), qPrintable(listing.error));
    }

    void hostileEntriesAreSkipped_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("why");
        QTest::newRow("huge shape") << "huge_shape.pt"
                                    << "reach beyond its storage";
        QTest::newRow("missing storage") << "missing_storage.pt"
                                         << "data/7 is missing";
        QTest::newRow("stride overflow") << "stride_overflow.pt"
                                         << "reach beyond its storage";
        QTest::newRow("short storage") << "short_storage.pt"
                                       << "its record holds 8 bytes";
        QTest::newRow("expanded view") << "expanded_view.pt"
                                       << "would have to be copied";
    }

    void hostileEntriesAreSkipped()
    {
        QFETCH(QString, file);
        QFETCH(QString, why);
        const TensorListing listing = listPtFile(fixture(file));
        QVERIFY2(listing.error.isEmpty(), qPrintable(listing.error));
        QCOMPARE(listing.tensors.size(), 1);
        QCOMPARE(listing.tensors[0].member, QStringLiteral("ok"));
        const TensorResult opened = listing.tensors[0].source->open();
        QVERIFY(opened.tensor);
        QCOMPARE(valuesOf(*opened.tensor), (std::vector<double> { 1, 2, 3, 4 }));
        QCOMPARE(listing.diagnostics.size(), 1);
        QVERIFY2(listing.diagnostics[0].message.contains(why), qPrintable(errorsText(listing)));
    }

    void handWrittenArchiveReads()
    {
        // The writer below is checked on a plain dict before it serves the hostile cases.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("hand.pt"));
        const float values[] = { 1, 2, 3, 4 };
        const QByteArray four(reinterpret_cast<const char*>(values), sizeof values);
        QVERIFY(writeArchive(path, QByteArray("\x80\x02}(") + unicode("a") + tensorOps(4) + "u.",
                             { { QStringLiteral("0"), four } }));
        const TensorListing listing = listPtFile(path);
        QVERIFY2(listing.error.isEmpty() && listing.diagnostics.isEmpty(), qPrintable(errorsText(listing)));
        QCOMPARE(listing.tensors.size(), 1);
        const TensorResult opened = listing.tensors[0].source->open();
        QVERIFY(opened.tensor);
        QCOMPARE(valuesOf(*opened.tensor), (std::vector<double> { 1, 2, 3, 4 }));
    }

    void oneTensorListedAMillionTimesStopsAtTheBudget()
    {
        // BINPUT the tensor once, then a million two-byte BINGETs of it into one list: two megabytes that
        // must not become a million listed tensors.
        constexpr int kCopies = 1'000'000;
        QByteArray pickle("\x80\x02](");
        pickle += tensorOps(4) + QByteArray("q\x01", 2);
        pickle.reserve(pickle.size() + 2 * kCopies + 2);
        for (int i = 1; i < kCopies; ++i)
            pickle += QByteArray("h\x01", 2);
        pickle += "e.";
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("repeated.pt"));
        QVERIFY(writeArchive(path, pickle, { { QStringLiteral("0"), QByteArray(16, '\0') } }));
        const TensorListing listing = listPtFile(path);
        QVERIFY2(listing.error.isEmpty(), qPrintable(listing.error));
        QVERIFY(!listing.tensors.isEmpty());
        QVERIFY(listing.tensors.size() < kCopies);
        QVERIFY2(!listing.diagnostics.isEmpty() && listing.diagnostics.last().message.contains(QLatin1String("more")),
                 qPrintable(errorsText(listing)));
    }

    void damagedFiles_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("why");
        QFile single(fixture(QStringLiteral("single.pt")));
        QVERIFY(single.open(QIODevice::ReadOnly));
        const QByteArray good = single.readAll();
        QTest::newRow("empty") << QByteArray() << "neither a zip archive";
        QTest::newRow("garbage") << QByteArray(4096, 'x') << "neither a zip archive";
        QTest::newRow("truncated") << good.left(good.size() / 2) << "zip archive";
        QTest::newRow("zip head only") << good.left(40) << "zip archive";
    }

    void damagedFiles()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, why);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("damaged.pt"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(bytes);
        file.close();
        const TensorListing listing = listPtFile(path);
        QVERIFY(listing.tensors.isEmpty());
        QVERIFY2(listing.error.contains(why), qPrintable(listing.error));
    }

    void decoderAllowsOnlyTheTorchGlobals_data()
    {
        QTest::addColumn<QByteArray>("pickle");
        QTest::addColumn<QString>("refused"); // empty: accepted
        QTest::newRow("OrderedDict") << QByteArray("\x80\x02"
                                                   "ccollections\nOrderedDict\n)R.")
                                     << QString();
        QTest::newRow("builtins.eval") << QByteArray("\x80\x02"
                                                     "cbuiltins\neval\n.")
                                       << "builtins.eval";
        QTest::newRow("STACK_GLOBAL posix.system")
            << QByteArray("\x80\x04\x8c\x05posix\x8c\x06system\x93.") << "posix.system";
        QTest::newRow("storage type called") << QByteArray("\x80\x02"
                                                           "ctorch\nFloatStorage\n)R.")
                                             << "torch.FloatStorage, which is not a function";
        QTest::newRow("BUILD on a list") << QByteArray("\x80\x02]}b.") << "neither a dict nor a tensor";
        QTest::newRow("persistent id not a storage")
            << QByteArray("\x80\x02X\x01\x00\x00\x00xQ.", 10) << "not a (\"storage\", ...) tuple";
        QTest::newRow("NEWOBJ") << QByteArray("\x80\x02"
                                              "ccollections\nOrderedDict\n)\x81.")
                                << "NEWOBJ";
    }

    void decoderAllowsOnlyTheTorchGlobals()
    {
        QFETCH(QByteArray, pickle);
        QFETCH(QString, refused);
        importers::memory::PickleLimits limits;
        limits.torchWeights = true;
        const importers::memory::PickleResult result = importers::memory::decodePickle(
            std::string_view(pickle.constData(), std::size_t(pickle.size())), QStringLiteral("x.pkl"), {}, limits);
        if (refused.isEmpty()) {
            QVERIFY(result.ok);
            QVERIFY(result.document.root().isDict());
            return;
        }
        QVERIFY(!result.ok);
        QVERIFY(!result.document.root().isValid());
        QVERIFY(!result.diagnostics.isEmpty());
        QVERIFY2(result.diagnostics[0].message.contains(refused), qPrintable(result.diagnostics[0].message));

        // Without the allow-list nothing of the kind is read at all.
        const importers::memory::PickleResult plain = importers::memory::decodePickle(
            std::string_view(pickle.constData(), std::size_t(pickle.size())), QStringLiteral("x.pkl"));
        QVERIFY(!plain.ok);
    }

    void sniffing()
    {
        QFile single(fixture(QStringLiteral("single.pt")));
        QVERIFY(single.open(QIODevice::ReadOnly));
        const QByteArray head = single.read(4096);
        QVERIFY(looksLikeTorchSaveZip(std::string_view(head.constData(), std::size_t(head.size()))));
        QFile legacy(fixture(QStringLiteral("legacy.pt")));
        QVERIFY(legacy.open(QIODevice::ReadOnly));
        const QByteArray legacyHead = legacy.read(4096);
        QVERIFY(looksLikeLegacyTorchSave(std::string_view(legacyHead.constData(), std::size_t(legacyHead.size()))));
        QVERIFY(!looksLikeTorchSaveZip(std::string_view(legacyHead.constData(), std::size_t(legacyHead.size()))));
    }
};

QTEST_GUILESS_MAIN(TstPtFile)
#include "tst_ptfile.moc"
