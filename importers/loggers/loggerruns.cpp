#include "importers/loggers/loggerruns.h"

#include "importers/loggers/flatjson.h"
#include "importers/loggers/loggerstr.h"
#include "importers/loggers/metricstable.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace runlens::importers::loggers {

namespace {

constexpr double kMegabyteToMiB = 1e6 / (1024.0 * 1024.0);
constexpr qint64 kMaxMetricFileBytes = qint64(1) << 31;
constexpr int kMaxMetricFiles = 100000;

void addPoint(models::scalars::ScalarBatch& batch, QHash<QString, int>& index, const QString& tag,
              const models::scalars::ScalarPoint& point)
{
    auto found = index.constFind(tag);
    if (found == index.constEnd()) {
        found = index.insert(tag, int(batch.size()));
        batch.push_back(models::scalars::TagPoints { tag, std::nullopt, {} });
    }
    batch[std::size_t(*found)].points.push_back(point);
}

QVariant paramValue(const QString& text)
{
    bool number = false;
    const double value = text.toDouble(&number);
    if (number)
        return value;
    if (text == QLatin1String("True") || text == QLatin1String("true"))
        return true;
    if (text == QLatin1String("False") || text == QLatin1String("false"))
        return false;
    return text;
}

QString unquote(QString value)
{
    value = value.trimmed();
    if (value.size() >= 2
        && ((value.startsWith(QLatin1Char('\'')) && value.endsWith(QLatin1Char('\'')))
            || (value.startsWith(QLatin1Char('"')) && value.endsWith(QLatin1Char('"')))))
        value = value.mid(1, value.size() - 2);
    return value;
}

QVariant yamlScalar(const QString& text)
{
    const QString value = unquote(text);
    if (value == QLatin1String("null") || value == QLatin1String("~"))
        return QString();
    return paramValue(value);
}

} // namespace

models::summary::HParams readHparamsYaml(QByteArrayView text, QStringList* skipped)
{
    models::summary::HParams hparams;
    const QList<QByteArray> lines = QByteArray(text.data(), text.size()).split('\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString line = QString::fromUtf8(lines[i]);
        if (line.isEmpty() || line.front().isSpace() || line.startsWith(QLatin1Char('#'))
            || line.startsWith(QLatin1Char('-')))
            continue;
        const qsizetype colon = line.indexOf(QLatin1String(": "));
        const bool bare = line.trimmed().endsWith(QLatin1Char(':'));
        if (colon <= 0 && !bare)
            continue;
        const QString key = unquote(bare ? line.trimmed().chopped(1) : line.left(colon));
        if (key.startsWith(QLatin1Char('_')))
            continue;
        if (!bare) {
            const QString value = line.mid(colon + 2).trimmed();
            if (value.startsWith(QLatin1Char('{')) || value.startsWith(QLatin1Char('['))
                || value.startsWith(QLatin1Char('!')) || value.startsWith(QLatin1Char('&'))
                || value.startsWith(QLatin1Char('|')) || value.startsWith(QLatin1Char('>'))) {
                if (skipped)
                    skipped->append(key);
                continue;
            }
            hparams.values.insert(key, yamlScalar(value));
            continue;
        }
        // A block below the key: W&B's `value: x`, else a list or a map that is not one value.
        bool found = false;
        bool nested = false;
        for (qsizetype j = i + 1; j < lines.size(); ++j) {
            const QString child = QString::fromUtf8(lines[j]);
            if (child.trimmed().isEmpty())
                continue;
            if (!child.front().isSpace() && !child.startsWith(QLatin1Char('-')))
                break;
            const QString trimmed = child.trimmed();
            if (trimmed.startsWith(QLatin1String("value: ")) && child.indexOf(QLatin1Char('v')) <= 4) {
                const QString value = trimmed.mid(7).trimmed();
                if (value.startsWith(QLatin1Char('{')) || value.startsWith(QLatin1Char('[')))
                    nested = true;
                else
                    hparams.values.insert(key, yamlScalar(value));
                found = !nested;
            } else if (trimmed == QLatin1String("value:")) {
                nested = true;
            }
        }
        if (!found && skipped)
            skipped->append(key);
    }
    return hparams;
}

std::optional<models::summary::HParams> tableSideHparams(const QString& tablePath, models::Diagnostics& diagnostics)
{
    const QFileInfo info(tablePath);
    const QDir dir = info.absoluteDir();
    const QString name = info.fileName();
    auto read = [](const QString& path) {
        QFile file(path);
        return file.size() < (8 << 20) && file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    };
    models::summary::HParams hparams;
    QStringList skipped;
    QString source;
    if (name == QLatin1String("metrics.csv") && dir.exists(QStringLiteral("hparams.yaml"))) {
        source = dir.filePath(QStringLiteral("hparams.yaml"));
        hparams = readHparamsYaml(read(source), &skipped);
    }
    // W&B: the history carries the run's values (the system events only when there is no history).
    const bool wandbHistory = name == QLatin1String("wandb-history.jsonl")
        || (name == QLatin1String("wandb-events.jsonl") && !dir.exists(QStringLiteral("wandb-history.jsonl")));
    if (wandbHistory) {
        if (dir.exists(QStringLiteral("config.yaml"))) {
            source = dir.filePath(QStringLiteral("config.yaml"));
            hparams = readHparamsYaml(read(source), &skipped);
        }
        const QByteArray summaryJson = read(dir.filePath(QStringLiteral("wandb-summary.json")));
        std::vector<JsonLine::Value> values;
        if (!summaryJson.isEmpty()
            && JsonLine(std::string_view(summaryJson.constData(), std::size_t(summaryJson.size())).substr(0))
                   .parse(values)) {
            for (const JsonLine::Value& v : values) {
                if (v.key.empty() || v.key.front() == '_')
                    continue;
                const QString key = QStringLiteral("summary/") + QString::fromStdString(v.key);
                if (v.number)
                    hparams.values.insert(key, *v.number);
                else if (v.isString)
                    hparams.values.insert(key, QString::fromStdString(v.text));
            }
        }
    }
    if (!skipped.isEmpty())
        diagnostics.append({ models::Severity::Info, source, -1, -1,
                             LoggersTr::tr("Hyper-parameters that are lists or nested settings are not shown: %1.")
                                 .arg(skipped.join(QStringLiteral(", "))) });
    if (hparams.values.isEmpty())
        return std::nullopt;
    return hparams;
}

LoggerRun readTrainerState(QByteArrayView text, const QString& path)
{
    LoggerRun run;
    const std::string_view json(text.data(), std::size_t(text.size()));
    const std::size_t history = jsonTopLevelValue(json, "log_history");
    if (history == std::string_view::npos || json[history] != '[') {
        run.diagnostics.append(
            { models::Severity::Error, path, -1, -1,
              LoggersTr::tr("The file has no \"log_history\" list; it is not a complete Hugging Face "
                            "trainer_state.json (perhaps cut while written).") });
        return run;
    }
    QHash<QString, int> index;
    qint64 entry = 0;
    qint64 bad = 0;
    for (const std::string_view element : jsonArrayElements(json, history)) {
        std::vector<JsonLine::Value> values;
        if (!JsonLine(element).parse(values)) {
            ++bad;
            continue;
        }
        qint64 step = entry++;
        for (const JsonLine::Value& v : values) {
            if (v.key == "step" && v.number && std::isfinite(*v.number) && std::abs(*v.number) < 9e18)
                step = qint64(*v.number);
        }
        for (const JsonLine::Value& v : values) {
            if (v.key == "step" || !v.number)
                continue;
            const QString key = QString::fromStdString(v.key);
            QString tag;
            if (key.startsWith(QLatin1String("eval_")))
                tag = QStringLiteral("eval/") + key.mid(5);
            else if (key.startsWith(QLatin1String("test_")))
                tag = QStringLiteral("test/") + key.mid(5);
            else
                tag = QStringLiteral("train/") + key;
            addPoint(run.scalars, index, tag, { step, 0.0, *v.number });
        }
    }
    if (bad > 0)
        run.diagnostics.append({ models::Severity::Warning, path, -1, -1,
                                 LoggersTr::tr("%n log_history entries could not be read and were left out.", nullptr,
                                               int(std::min<qint64>(bad, 1 << 30))) });
    // The run's information: everything at the top level that is a number or a string.
    std::vector<JsonLine::Value> top;
    models::summary::HParams hparams;
    std::string_view head = json;
    if (JsonLine(head).parse(top) || !top.empty()) {
        for (const JsonLine::Value& v : top) {
            // The run's outcome and settings; the process flags (`is_world_process_zero` …) say nothing about it.
            static const char* const kKeys[] = { "best_metric",
                                                 "best_model_checkpoint",
                                                 "best_global_step",
                                                 "global_step",
                                                 "epoch",
                                                 "max_steps",
                                                 "num_train_epochs",
                                                 "train_batch_size",
                                                 "logging_steps",
                                                 "eval_steps",
                                                 "save_steps",
                                                 "trial_name" };
            if (std::find(std::begin(kKeys), std::end(kKeys), v.key) == std::end(kKeys))
                continue;
            const QString key = QString::fromStdString(v.key);
            if (v.number)
                hparams.values.insert(key, *v.number);
            else if (v.isString)
                hparams.values.insert(key, QString::fromStdString(v.text));
        }
    }
    if (!hparams.values.isEmpty())
        run.hparams = hparams;
    run.ok = true;
    return run;
}

std::pair<QString, double> mlflowSystemTag(const QString& name)
{
    static const QRegularExpression gpu(QStringLiteral("^system/gpu_(\\d+)_(.+)$"));
    if (name == QLatin1String("system/cpu_utilization_percentage"))
        return { QStringLiteral("system/cpu_busy_percent"), 1.0 };
    if (name == QLatin1String("system/system_memory_usage_megabytes"))
        return { QStringLiteral("system/mem_used_MiB"), kMegabyteToMiB };
    if (name == QLatin1String("system/system_memory_usage_percentage"))
        return { QStringLiteral("system/mem_used_percent"), 1.0 };
    if (name == QLatin1String("system/network_receive_megabytes"))
        return { QStringLiteral("system/net_total_rx_MiB_per_s"), kMegabyteToMiB };
    if (name == QLatin1String("system/network_transmit_megabytes"))
        return { QStringLiteral("system/net_total_tx_MiB_per_s"), kMegabyteToMiB };
    const QRegularExpressionMatch match = gpu.match(name);
    if (match.hasMatch()) {
        const QString prefix = QStringLiteral("system/gpu") + match.captured(1) + QLatin1Char('_');
        const QString field = match.captured(2);
        if (field == QLatin1String("utilization_percentage"))
            return { prefix + QStringLiteral("util_percent"), 1.0 };
        if (field == QLatin1String("memory_usage_megabytes"))
            return { prefix + QStringLiteral("mem_used_MiB"), kMegabyteToMiB };
        if (field == QLatin1String("memory_usage_percentage"))
            return { prefix + QStringLiteral("mem_used_percent"), 1.0 };
        if (field == QLatin1String("power_usage_watts"))
            return { prefix + QStringLiteral("power_W"), 1.0 };
        if (field == QLatin1String("power_usage_percentage"))
            return { prefix + QStringLiteral("power_percent"), 1.0 };
    }
    return { name, 1.0 };
}

LoggerRun readMlflowRun(const QString& metaYamlPath, const ImportControl& control)
{
    LoggerRun run;
    const QDir folder = QFileInfo(metaYamlPath).absoluteDir();
    models::summary::HParams hparams;

    QFile meta(metaYamlPath);
    if (!meta.open(QIODevice::ReadOnly)) {
        run.diagnostics.append({ models::Severity::Error, metaYamlPath, -1, -1,
                                 LoggersTr::tr("The file cannot be opened: %1.").arg(meta.errorString()) });
        return run;
    }
    // meta.yaml is flat `key: value` lines; only a few keys are wanted, no YAML parser is needed.
    for (const QByteArray& raw : meta.read(1 << 20).split('\n')) {
        const QString line = QString::fromUtf8(raw);
        const qsizetype colon = line.indexOf(QLatin1Char(':'));
        if (colon <= 0 || line.startsWith(QLatin1Char(' ')))
            continue;
        const QString key = line.left(colon).trimmed();
        QString value = line.mid(colon + 1).trimmed();
        if (value.size() >= 2 && (value.startsWith(QLatin1Char('\'')) || value.startsWith(QLatin1Char('"'))))
            value = value.mid(1, value.size() - 2);
        if (key == QLatin1String("status")) {
            // MLflow's RunStatus numbers.
            static const char* const kStatus[] = { "", "RUNNING", "SCHEDULED", "FINISHED", "FAILED", "KILLED" };
            const int number = value.toInt();
            if (number >= 1 && number <= 5)
                value = QLatin1String(kStatus[number]);
        }
        if (key == QLatin1String("run_name") || key == QLatin1String("run_id") || key == QLatin1String("status")
            || key == QLatin1String("experiment_id"))
            hparams.values.insert(QStringLiteral("mlflow.") + key, value);
    }

    // params/<name> hold one value each; nested names are folders.
    const QString paramsDir = folder.filePath(QStringLiteral("params"));
    QDirIterator params(paramsDir, QDir::Files | QDir::NoSymLinks, QDirIterator::Subdirectories);
    int count = 0;
    while (params.hasNext() && ++count < kMaxMetricFiles) {
        const QString file = params.next();
        QFile f(file);
        if (!f.open(QIODevice::ReadOnly))
            continue;
        hparams.values.insert(QDir(paramsDir).relativeFilePath(file),
                              paramValue(QString::fromUtf8(f.read(64 * 1024)).trimmed()));
    }

    // tags/: the user's own tags; MLflow's (`mlflow.user`, `mlflow.source.name` …) describe the client, not the run.
    const QString tagsDir = folder.filePath(QStringLiteral("tags"));
    QDirIterator tags(tagsDir, QDir::Files | QDir::NoSymLinks, QDirIterator::Subdirectories);
    count = 0;
    while (tags.hasNext() && ++count < kMaxMetricFiles) {
        const QString file = tags.next();
        const QString name = QDir(tagsDir).relativeFilePath(file);
        QFile f(file);
        if (name.startsWith(QLatin1String("mlflow.")) || !f.open(QIODevice::ReadOnly))
            continue;
        hparams.values.insert(QStringLiteral("tag/") + name, QString::fromUtf8(f.read(64 * 1024)).trimmed());
    }

    const QString metricsDir = folder.filePath(QStringLiteral("metrics"));
    QDirIterator metrics(metricsDir, QDir::Files | QDir::NoSymLinks, QDirIterator::Subdirectories);
    QHash<QString, int> index;
    count = 0;
    qint64 badLines = 0;
    while (metrics.hasNext() && ++count < kMaxMetricFiles) {
        if (control.canceled())
            break;
        const QString file = metrics.next();
        const QString name = QDir(metricsDir).relativeFilePath(file);
        const auto [tag, factor]
            = name.startsWith(QLatin1String("system/")) ? mlflowSystemTag(name) : std::pair<QString, double>(name, 1.0);
        QFile f(file);
        if (f.size() > kMaxMetricFileBytes || !f.open(QIODevice::ReadOnly)) {
            run.diagnostics.append({ models::Severity::Warning, file, -1, -1,
                                     LoggersTr::tr("The metric file cannot be read; it is left out.") });
            continue;
        }
        const QByteArray data = f.readAll();
        qint64 lineNumber = 0;
        for (const QByteArray& line : data.split('\n')) {
            ++lineNumber;
            const QList<QByteArray> fields = line.simplified().split(' ');
            if (line.trimmed().isEmpty())
                continue;
            if (fields.size() < 2) {
                ++badLines;
                continue;
            }
            const auto time = MetricsTableParser::parseNumber(
                std::string_view(fields[0].constData(), std::size_t(fields[0].size())), false);
            const auto value = MetricsTableParser::parseNumber(
                std::string_view(fields[1].constData(), std::size_t(fields[1].size())), false);
            std::optional<double> step = 0.0;
            if (fields.size() >= 3)
                step = MetricsTableParser::parseNumber(
                    std::string_view(fields[2].constData(), std::size_t(fields[2].size())), false);
            if (!time || !value || !step || !std::isfinite(*step) || std::abs(*step) > 9e18) {
                ++badLines;
                continue;
            }
            addPoint(run.scalars, index, tag, { qint64(*step), *time / 1000.0, *value * factor });
        }
    }
    // MLflow's network metrics count megabytes since the run started; `runlens record` writes rates.
    for (models::scalars::TagPoints& tag : run.scalars) {
        if (!tag.tag.endsWith(QLatin1String("_MiB_per_s")))
            continue;
        std::vector<models::scalars::ScalarPoint> rates;
        for (std::size_t i = 1; i < tag.points.size(); ++i) {
            const models::scalars::ScalarPoint& a = tag.points[i - 1];
            const models::scalars::ScalarPoint& b = tag.points[i];
            if (b.wallTime > a.wallTime && b.value >= a.value)
                rates.push_back({ b.step, b.wallTime, (b.value - a.value) / (b.wallTime - a.wallTime) });
        }
        tag.points = std::move(rates);
    }
    if (badLines > 0)
        run.diagnostics.append({ models::Severity::Warning, metaYamlPath, -1, -1,
                                 LoggersTr::tr("%n metric lines are not \"timestamp value step\" and were left out.",
                                               nullptr, int(std::min<qint64>(badLines, 1 << 30))) });
    if (!hparams.values.isEmpty())
        run.hparams = hparams;
    run.ok = true;
    return run;
}

} // namespace runlens::importers::loggers
