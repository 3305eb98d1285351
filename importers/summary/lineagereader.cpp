#include "importers/summary/lineagereader.h"

#include "importers/summary/proto/ms_lineage.pb.h"
#include "importers/summary/recordpoll.h"
#include "importers/summary/recordreader.h"
#include "importers/summary/summarytr.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QLocale>
#include <QLoggingCategory>
#include <QStringList>

#include <algorithm>
#include <charconv>
#include <exception>
#include <limits>
#include <optional>
#include <string>

namespace runlens::importers::summary {

Q_LOGGING_CATEGORY(lcLineageImport, "runlens.importers.summary.lineage", QtWarningMsg)

namespace {

namespace pb = runlens::ms::lineage;

/// Each kind of problem is reported this often per file; further occurrences are only counted.
constexpr int kMaxReportsPerProblem = 20;
constexpr qint64 kRecordsPerCheck = 1024;

enum class Problem { DataCrc, Undecodable, Metric, Count };

QString fromUtf8(const std::string& bytes)
{
    return QString::fromUtf8(bytes.data(), qsizetype(bytes.size()));
}

/// The double a user means by a float field: 0.01f becomes 0.01, not 0.009999999776.
double shortestDouble(float value)
{
    char text[64];
    const auto written = std::to_chars(text, text + sizeof(text), value);
    if (written.ec != std::errc())
        return double(value);
    double out = double(value);
    std::from_chars(text, written.ptr, out);
    return out;
}

QString numberText(double value)
{
    return QString::number(value, 'g', QLocale::FloatingPointShortest);
}

models::summary::RunLineage::Train trainFrom(const pb::TrainLineage& in)
{
    models::summary::RunLineage::Train t;
    if (in.has_hyper_parameters()) {
        const auto& h = in.hyper_parameters();
        if (h.has_optimizer())
            t.optimizer = fromUtf8(h.optimizer());
        if (h.has_learning_rate())
            t.learningRate = shortestDouble(h.learning_rate());
        if (h.has_loss_function())
            t.lossFunction = fromUtf8(h.loss_function());
        if (h.has_epoch())
            t.epoch = h.epoch();
        if (h.has_parallel_mode())
            t.parallelMode = fromUtf8(h.parallel_mode());
        if (h.has_device_num())
            t.deviceNum = h.device_num();
        if (h.has_batch_size())
            t.batchSize = h.batch_size();
    }
    if (in.has_train_dataset()) {
        const auto& d = in.train_dataset();
        if (d.has_train_dataset_path())
            t.trainDatasetPath = fromUtf8(d.train_dataset_path());
        if (d.has_train_dataset_size())
            t.trainDatasetSize = d.train_dataset_size();
    }
    if (in.has_algorithm()) {
        const auto& a = in.algorithm();
        if (a.has_network())
            t.network = fromUtf8(a.network());
        if (a.has_loss())
            t.loss = shortestDouble(a.loss());
    }
    if (in.has_model()) {
        const auto& m = in.model();
        if (m.has_path())
            t.modelPath = fromUtf8(m.path());
        if (m.has_size())
            t.modelSize = m.size();
    }
    return t;
}

/// Python's json.dumps writes NaN, Infinity and -Infinity bare, which is not JSON: quote them (outside
/// strings) so that QJsonDocument accepts the text, and map the quoted forms back to numbers later.
QByteArray quoteNonFiniteNumbers(const QByteArray& json)
{
    QByteArray out;
    out.reserve(json.size() + 16);
    const QByteArrayView text(json);
    bool inString = false;
    for (qsizetype i = 0; i < json.size(); ++i) {
        const char c = json[i];
        if (inString) {
            out += c;
            if (c == '\\' && i + 1 < json.size())
                out += json[++i];
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
            out += c;
            continue;
        }
        bool replaced = false;
        for (const char* token : { "-Infinity", "Infinity", "NaN" }) {
            const QByteArrayView view(token);
            // A view of the rest: QByteArray::sliced() would copy it, once per byte of the text.
            if (text.sliced(i).startsWith(view)) {
                out += '"';
                out += view;
                out += '"';
                i += view.size() - 1;
                replaced = true;
                break;
            }
        }
        if (!replaced)
            out += c;
    }
    return out;
}

std::optional<double> metricNumber(const QJsonValue& value)
{
    if (value.isDouble())
        return value.toDouble();
    if (value.isString()) {
        const QString text = value.toString();
        if (text == QLatin1String("NaN"))
            return std::numeric_limits<double>::quiet_NaN();
        if (text == QLatin1String("Infinity"))
            return std::numeric_limits<double>::infinity();
        if (text == QLatin1String("-Infinity"))
            return -std::numeric_limits<double>::infinity();
    }
    return std::nullopt;
}

/// "key=value" pairs of one operation's parameters, sorted by key.
QMap<QString, QString> parameterTexts(const pb::OperationParameter& p)
{
    QMap<QString, QString> out;
    for (const auto& [key, value] : p.mapstr())
        out.insert(fromUtf8(key), fromUtf8(value));
    for (const auto& [key, list] : p.mapstrlist()) {
        QStringList items;
        for (const std::string& item : list.strvalue())
            items << fromUtf8(item);
        out.insert(fromUtf8(key), QLatin1Char('[') + items.join(QStringLiteral(", ")) + QLatin1Char(']'));
    }
    for (const auto& [key, value] : p.mapbool())
        out.insert(fromUtf8(key), value ? QStringLiteral("true") : QStringLiteral("false"));
    for (const auto& [key, value] : p.mapint())
        out.insert(fromUtf8(key), QString::number(value));
    for (const auto& [key, value] : p.mapdouble())
        out.insert(fromUtf8(key), numberText(value));
    return out;
}

QString joinedParameters(const QMap<QString, QString>& parameters)
{
    QStringList parts;
    for (auto it = parameters.cbegin(); it != parameters.cend(); ++it)
        parts << it.key() + QLatin1Char('=') + it.value();
    return parts.join(QStringLiteral(", "));
}

/// Appends the pipeline that ends in `node`, sources first: a node's children are the nodes feeding it.
void flattenDataset(const pb::DatasetGraph& node, QList<models::summary::DatasetOp>& out)
{
    for (const pb::DatasetGraph& child : node.children())
        flattenDataset(child, out);
    models::summary::DatasetOp op;
    op.parameters = parameterTexts(node.parameter());
    op.type = op.parameters.take(QStringLiteral("op_type"));
    if (node.has_sampler())
        op.parameters.insert(QStringLiteral("sampler"),
                             joinedParameters(parameterTexts(node.sampler().operationparam())));
    if (node.operations_size() > 0) {
        QStringList operations;
        for (const pb::Operation& operation : node.operations())
            operations << QLatin1Char('{') + joinedParameters(parameterTexts(operation.operationparam()))
                    + QLatin1Char('}');
        op.parameters.insert(QStringLiteral("operations"), operations.join(QStringLiteral(", ")));
    }
    out.append(std::move(op));
}

/// Nested dictionaries become "outer/inner" names; repeated entries merge into the same level.
void flattenUserInfo(const pb::UserDefinedInfo& info, const QString& prefix, QMap<QString, QVariant>& out)
{
    for (const pb::UserDefinedInfo& item : info.user_info())
        flattenUserInfo(item, prefix, out);
    for (const auto& [key, value] : info.map_int32())
        out.insert(prefix + fromUtf8(key), qint64(value));
    for (const auto& [key, value] : info.map_str())
        out.insert(prefix + fromUtf8(key), fromUtf8(value));
    for (const auto& [key, value] : info.map_double())
        out.insert(prefix + fromUtf8(key), value);
    for (const auto& [key, value] : info.map_dict())
        flattenUserInfo(value, prefix + fromUtf8(key) + QLatin1Char('/'), out);
}

} // namespace

struct LineageReader::Private
{
    explicit Private(QString path)
        : path(std::move(path))
        , file(QFileInfo(this->path).absoluteFilePath())
    { }

    void readRecords(RecordReader& reader, const ImportControl& control, ImportUpdate& result);
    void decode(const RecordReader::Record& record);
    models::summary::RunLineage::Evaluation evaluationFrom(const pb::EvaluationLineage& in);
    template<typename Message> void report(Problem problem, qint64 at, Message&& message);
    void reportFatal(RecordStatus status, const RecordReader& reader);
    void finishPoll();
    models::ImportStatus status() const;

    QString path;
    QString file; ///< absolute path for diagnostics
    qint64 offset = 0;
    bool dead = false;
    bool hadProblems = false;
    qint64 goodRecords = 0;
    models::summary::RunLineage lineage;
    bool changed = false; ///< the current poll took a record

    pb::LineageEvent event;
    int reports[int(Problem::Count)] = {};
    qint64 unreported[int(Problem::Count)] = {};
    ImportUpdate* update = nullptr; ///< valid during one poll
    qint64 recordOffset = 0;
};

template<typename Message> void LineageReader::Private::report(Problem problem, qint64 at, Message&& message)
{
    hadProblems = true;
    const int kind = int(problem);
    if (reports[kind] >= kMaxReportsPerProblem) {
        ++unreported[kind];
        return;
    }
    ++reports[kind];
    models::Diagnostic diagnostic { models::Severity::Warning, file, at, -1, message() };
    qCDebug(lcLineageImport) << file << at << diagnostic.message;
    update->diagnostics.append(std::move(diagnostic));
}

models::summary::RunLineage::Evaluation LineageReader::Private::evaluationFrom(const pb::EvaluationLineage& in)
{
    models::summary::RunLineage::Evaluation e;
    if (in.has_valid_dataset()) {
        const auto& d = in.valid_dataset();
        if (d.has_valid_dataset_path())
            e.validDatasetPath = fromUtf8(d.valid_dataset_path());
        if (d.has_valid_dataset_size())
            e.validDatasetSize = d.valid_dataset_size();
    }
    if (!in.has_metric() || in.metric().empty())
        return e;
    const QByteArray text = QByteArray::fromStdString(in.metric());
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(quoteNonFiniteNumbers(text), &error);
    if (!document.isObject()) {
        report(Problem::Metric, recordOffset, [&] {
            return SummaryTr::tr("The evaluation metrics are not a JSON object (%1); they were not read.")
                .arg(error.error != QJsonParseError::NoError ? error.errorString() : QString::fromUtf8(text.left(80)));
        });
        return e;
    }
    const QJsonObject metrics = document.object();
    for (auto it = metrics.constBegin(); it != metrics.constEnd(); ++it) {
        if (const std::optional<double> number = metricNumber(it.value())) {
            e.metrics.insert(it.key(), *number);
        } else {
            report(Problem::Metric, recordOffset, [&] {
                return SummaryTr::tr("The evaluation metric \"%1\" is not a number; it was left out.").arg(it.key());
            });
        }
    }
    return e;
}

void LineageReader::Private::decode(const RecordReader::Record& record)
{
    recordOffset = record.offset;
    event.Clear();
    if (!event.ParseFromArray(record.data, int(record.size))) {
        report(Problem::Undecodable, record.offset, [&] {
            return SummaryTr::tr("The record of %1 bytes is not a valid MindSpore lineage event; it was skipped.")
                .arg(record.size);
        });
        return;
    }
    ++goodRecords;
    // Upstream these are members of one oneof; a record carrying several is still taken whole.
    if (event.has_train_lineage()) {
        lineage.train = trainFrom(event.train_lineage());
        changed = true;
    }
    if (event.has_evaluation_lineage()) {
        lineage.evaluation = evaluationFrom(event.evaluation_lineage());
        changed = true;
    }
    if (event.has_dataset_graph()) {
        QList<models::summary::DatasetOp> ops;
        flattenDataset(event.dataset_graph(), ops);
        lineage.datasetGraph = std::move(ops);
        changed = true;
    }
    if (event.has_user_defined_info()) {
        QMap<QString, QVariant> values;
        flattenUserInfo(event.user_defined_info(), QString(), values);
        lineage.userDefined = std::move(values);
        changed = true;
    }
}

void LineageReader::Private::reportFatal(RecordStatus status, const RecordReader& reader)
{
    hadProblems = true;
    dead = true;
    const qint64 at = reader.problemOffset();
    QString message;
    switch (status) {
    case RecordStatus::BadLengthCrc:
        message = at == 0 && goodRecords == 0
            ? SummaryTr::tr("This is not a MindSpore lineage file: its first record header fails its checksum.")
            : SummaryTr::tr("The length of the record at this offset fails its checksum, so the records after it "
                            "cannot be located; the rest of the file is not read. The file is damaged.");
        break;
    case RecordStatus::TooLarge:
        message = SummaryTr::tr("The record at this offset claims %1 bytes, more than a lineage record may hold; "
                                "the rest of the file is not read.")
                      .arg(reader.problemLength());
        break;
    case RecordStatus::IoError:
        message = SummaryTr::tr("Reading failed: %1. The rest of the file is not read; reopen the run to try again.")
                      .arg(reader.errorString());
        break;
    default:
        return;
    }
    qCInfo(lcLineageImport) << file << at << message;
    update->diagnostics.append(models::Diagnostic { models::Severity::Error, file, at, -1, message });
}

void LineageReader::Private::readRecords(RecordReader& reader, const ImportControl& control, ImportUpdate& result)
{
    const qint64 start = reader.offset();
    qint64 records = 0;
    RecordReader::Record record;
    for (;;) {
        if (records > 0 && records % kRecordsPerCheck == 0) {
            if (control.canceled()) {
                result.status = models::ImportStatus::Canceled;
                break;
            }
            const qint64 total = std::max<qint64>(1, reader.fileSize() - start);
            control.report(int(std::min<qint64>(999, (reader.offset() - start) * 1000 / total)));
        }
        const RecordStatus status = reader.next(record);
        if (status == RecordStatus::Ok) {
            ++records;
            decode(record);
            continue;
        }
        if (status == RecordStatus::BadDataCrc) {
            ++records;
            report(Problem::DataCrc, record.offset, [&] {
                return SummaryTr::tr("The contents of the record of %1 bytes at this offset fail their checksum; "
                                     "the record was skipped. The file is damaged.")
                    .arg(record.size);
            });
            continue;
        }
        if (status == RecordStatus::Truncated)
            result.mayGrow = true;
        else if (status != RecordStatus::End)
            reportFatal(status, reader);
        break;
    }
    result.recordsRead = records;
    result.bytesRead = reader.offset() - start;
    offset = reader.offset();
}

void LineageReader::Private::finishPoll()
{
    for (int kind = 0; kind < int(Problem::Count); ++kind) {
        if (unreported[kind] == 0)
            continue;
        update->diagnostics.append(models::Diagnostic {
            models::Severity::Warning, file, -1, -1,
            SummaryTr::tr("%n more record(s) with the same problem were skipped.", nullptr, int(unreported[kind])) });
        unreported[kind] = 0;
    }
    if (changed)
        update->lineage = lineage;
    changed = false;
    update = nullptr;
}

models::ImportStatus LineageReader::Private::status() const
{
    if (hadProblems)
        return goodRecords == 0 ? models::ImportStatus::Failed : models::ImportStatus::Partial;
    return models::ImportStatus::Ok;
}

LineageReader::LineageReader(QString path)
    : d(std::make_unique<Private>(std::move(path)))
{ }

LineageReader::~LineageReader() = default;

ImportUpdate LineageReader::poll(const ImportControl& control)
{
    ImportUpdate result;
    if (d->dead) {
        result.status = d->status();
        return result;
    }
    d->update = &result;
    pollRecordFile(d->path, d->file, d->offset, d->dead, d->hadProblems, result.diagnostics,
                   [&](RecordReader& reader) { d->readRecords(reader, control, result); });
    d->finishPoll();
    if (result.status != models::ImportStatus::Canceled)
        result.status = d->status();
    control.report(1000);
    return result;
}

const models::summary::RunLineage& LineageReader::lineage() const
{
    return d->lineage;
}

qint64 LineageReader::offset() const
{
    return d->offset;
}

} // namespace runlens::importers::summary
