#include "models/summary/runcomparison.h"

#include "models/scalars/scalarstore.h"
#include "models/summary/summarystore.h"

#include <QSet>
#include <QTimer>

#include <algorithm>
#include <cmath>

namespace runlens::models::summary {

namespace {

/// Lineage keys in the order a reader expects them, with the ones shown before the user asks.
struct LineageKey
{
    const char* key;
    const char* title;
    bool defaultVisible;
};

constexpr LineageKey kLineageKeys[] = {
    { "network", QT_TRANSLATE_NOOP("runlens::models::summary::RunComparison", "Network"), true },
    { "optimizer", QT_TRANSLATE_NOOP("runlens::models::summary::RunComparison", "Optimizer"), true },
    { "learning_rate", QT_TRANSLATE_NOOP("runlens::models::summary::RunComparison", "Learning rate"), true },
    { "batch_size", QT_TRANSLATE_NOOP("runlens::models::summary::RunComparison", "Batch size"), true },
    { "epoch", QT_TRANSLATE_NOOP("runlens::models::summary::RunComparison", "Epochs"), true },
    { "loss_function", QT_TRANSLATE_NOOP("runlens::models::summary::RunComparison", "Loss function"), true },
    { "device_num", QT_TRANSLATE_NOOP("runlens::models::summary::RunComparison", "Devices"), true },
    { "parallel_mode", QT_TRANSLATE_NOOP("runlens::models::summary::RunComparison", "Parallel mode"), false },
    { "train_dataset_path", QT_TRANSLATE_NOOP("runlens::models::summary::RunComparison", "Train dataset"), true },
    { "train_dataset_size", QT_TRANSLATE_NOOP("runlens::models::summary::RunComparison", "Train dataset size"), true },
    { "valid_dataset_path", QT_TRANSLATE_NOOP("runlens::models::summary::RunComparison", "Validation dataset"), false },
    { "valid_dataset_size", QT_TRANSLATE_NOOP("runlens::models::summary::RunComparison", "Validation dataset size"),
      false },
    { "dataset_pipeline", QT_TRANSLATE_NOOP("runlens::models::summary::RunComparison", "Dataset pipeline"), false },
    { "loss", QT_TRANSLATE_NOOP("runlens::models::summary::RunComparison", "Final loss (lineage)"), true },
    { "model_path", QT_TRANSLATE_NOOP("runlens::models::summary::RunComparison", "Model file"), false },
    { "model_size", QT_TRANSLATE_NOOP("runlens::models::summary::RunComparison", "Model size"), false },
};

bool isNumber(const QVariant& value)
{
    switch (value.typeId()) {
    case QMetaType::Double:
    case QMetaType::Float:
    case QMetaType::Int:
    case QMetaType::UInt:
    case QMetaType::LongLong:
    case QMetaType::ULongLong:
    case QMetaType::Short:
    case QMetaType::UShort:
    case QMetaType::Long:
    case QMetaType::ULong:
        return true;
    default:
        return false;
    }
}

/// Appends a column per key, in `order` first and then the others sorted, numeric when every value is.
void addValueColumns(std::vector<RunComparison::Column>& out, RunComparison::ColumnKind kind, const QString& prefix,
                     const QList<QVariantMap>& maps, const QStringList& order)
{
    QStringList keys = order;
    QStringList rest;
    for (const QVariantMap& map : maps) {
        for (auto it = map.cbegin(); it != map.cend(); ++it) {
            if (!keys.contains(it.key()) && !rest.contains(it.key()))
                rest << it.key();
        }
    }
    std::sort(rest.begin(), rest.end());
    keys << rest;
    for (const QString& key : std::as_const(keys)) {
        bool present = false;
        bool numeric = true;
        for (const QVariantMap& map : maps) {
            const auto found = map.constFind(key);
            if (found == map.cend() || !found->isValid())
                continue;
            present = true;
            numeric = numeric && isNumber(*found);
        }
        if (!present)
            continue;
        RunComparison::Column c;
        c.key = prefix + key;
        c.kind = kind;
        c.name = key;
        c.title = key;
        c.numeric = numeric;
        c.defaultVisible = true;
        out.push_back(c);
    }
}

} // namespace

RunComparison::RunComparison(const scalars::ScalarStore* scalars, const SummaryStore* summaries, QObject* parent)
    : QAbstractTableModel(parent)
{
    m_timer = new QTimer(this);
    m_timer->setSingleShot(true);
    m_timer->setInterval(kUpdateDelayMs);
    connect(m_timer, &QTimer::timeout, this, &RunComparison::refresh);
    setStores(scalars, summaries);
}

RunComparison::~RunComparison() = default;

void RunComparison::setStores(const scalars::ScalarStore* scalars, const SummaryStore* summaries)
{
    if (m_scalars)
        disconnect(m_scalars, nullptr, this, nullptr);
    if (m_summaries)
        disconnect(m_summaries, nullptr, this, nullptr);
    m_scalars = scalars;
    m_summaries = summaries;
    if (m_scalars) {
        connect(m_scalars, &scalars::ScalarStore::structureChanged, this, &RunComparison::scheduleRefresh);
        connect(m_scalars, &scalars::ScalarStore::seriesChanged, this, &RunComparison::scheduleRefresh);
        connect(m_scalars, &scalars::ScalarStore::cleared, this, &RunComparison::scheduleRefresh);
        connect(m_scalars, &QObject::destroyed, this, &RunComparison::scheduleRefresh);
    }
    if (m_summaries) {
        connect(m_summaries, &SummaryStore::parametersChanged, this, &RunComparison::scheduleRefresh);
        connect(m_summaries, &SummaryStore::structureChanged, this, &RunComparison::scheduleRefresh);
        connect(m_summaries, &SummaryStore::cleared, this, &RunComparison::scheduleRefresh);
        connect(m_summaries, &QObject::destroyed, this, &RunComparison::scheduleRefresh);
    }
    refresh();
}

void RunComparison::scheduleRefresh()
{
    if (!m_timer->isActive())
        m_timer->start();
}

bool RunComparison::minimizesByName(const QString& tag)
{
    static const char* const kWords[] = { "loss", "error", "perplexity" };
    return std::any_of(std::begin(kWords), std::end(kWords),
                       [&](const char* word) { return tag.contains(QLatin1String(word), Qt::CaseInsensitive); });
}

RunComparison::Goal RunComparison::effectiveGoal(const QString& tag) const
{
    const Goal g = goal(tag);
    if (g != Goal::Auto)
        return g;
    return minimizesByName(tag) ? Goal::Minimize : Goal::Maximize;
}

void RunComparison::setGoal(const QString& tag, Goal goal)
{
    if (this->goal(tag) == goal)
        return;
    if (goal == Goal::Auto)
        m_goals.remove(tag);
    else
        m_goals.insert(tag, goal);
    refresh();
    const int best = columnOf(QStringLiteral("best/") + tag);
    if (best >= 0)
        emit headerDataChanged(Qt::Horizontal, best, best + 1);
}

RunComparison::MetricSummary RunComparison::summarize(const scalars::ScalarSeries& series, Goal goal)
{
    if (goal == Goal::Auto)
        goal = minimizesByName(series.tag) ? Goal::Minimize : Goal::Maximize;
    MetricSummary s;
    if (series.points.empty())
        return s;
    s.valid = true;
    s.points = qint64(series.points.size());
    s.finalValue = series.points.back().value;
    s.finalStep = series.points.back().step;
    for (const scalars::ScalarPoint& p : series.points) {
        if (!std::isfinite(p.value))
            continue;
        const bool better = std::isnan(s.best) || (goal == Goal::Minimize ? p.value < s.best : p.value > s.best);
        if (better) {
            s.best = p.value;
            s.bestStep = p.step;
        }
    }
    return s;
}

QString RunComparison::scalarRunFor(const QString& run, const QString& group, const QString& tag) const
{
    if (!m_scalars || group.isEmpty() || m_scalars->series(run, tag))
        return run;
    const QString sub = run + QLatin1Char('/') + group;
    return m_scalars->series(sub, tag) ? sub : run;
}

RunComparison::MetricSummary RunComparison::metric(const QString& run, const QString& tag) const
{
    if (!m_scalars)
        return {};
    const scalars::ScalarSeries* series = m_scalars->series(scalarRunFor(run, m_metricGroups.value(tag), tag), tag);
    return series ? summarize(*series, goal(tag)) : MetricSummary {};
}

/// The runs of the table with their hyper-parameters and lineage, read from both stores.
struct RunComparison::RunInputs
{
    QStringList runs;
    QHash<QString, HParams> hparams;
    QHash<QString, QVariantMap> lineage;
};

/// What the runs' hparams experiments declare, in declaration order.
struct RunComparison::Declarations
{
    QStringList params;
    QHash<QString, HParamInfo> paramInfos;
    QStringList metrics;
    QHash<QString, MetricInfo> metricInfos;
    QList<QVariantMap> paramValues;
    bool anyStatus = false;
};

void RunComparison::refresh()
{
    m_timer->stop();
    const RunInputs inputs = collectRuns();
    const Declarations declared = collectDeclarations(inputs);

    std::vector<Column> columns;
    columns.push_back(runColumn());
    addHParamColumns(columns, declared);
    addLineageColumns(columns, inputs.lineage);
    if (declared.anyStatus)
        columns.push_back(statusColumn());
    updateMetricGroups(declared);
    addMetricColumns(columns, declared);

    std::vector<std::vector<QVariant>> cells = buildCells(inputs, columns);
    publish(inputs.runs, std::move(columns), std::move(cells));
}

RunComparison::RunInputs RunComparison::collectRuns() const
{
    // Rows: every run with scalars or parameters.
    RunInputs inputs;
    if (m_scalars)
        inputs.runs = m_scalars->runs();
    if (m_summaries) {
        for (const QString& run : m_summaries->runsWithParameters()) {
            if (!inputs.runs.contains(run))
                inputs.runs << run;
            const HParams h = m_summaries->hparams(run);
            if (!h.isEmpty())
                inputs.hparams.insert(run, h);
            const RunLineage l = m_summaries->lineage(run);
            if (!l.isEmpty())
                inputs.lineage.insert(run, l.toVariantMap());
        }
    }
    std::sort(inputs.runs.begin(), inputs.runs.end());
    return inputs;
}

RunComparison::Declarations RunComparison::collectDeclarations(const RunInputs& inputs)
{
    // Hyper-parameters and metrics in the order the experiments declare them.
    Declarations declared;
    for (const QString& run : std::as_const(inputs.runs)) {
        const auto found = inputs.hparams.constFind(run);
        if (found == inputs.hparams.cend())
            continue;
        for (const HParamInfo& info : found->hparamInfos) {
            if (!declared.params.contains(info.name)) {
                declared.params << info.name;
                declared.paramInfos.insert(info.name, info);
            }
        }
        for (const MetricInfo& info : found->metricInfos) {
            if (!declared.metrics.contains(info.tag)) {
                declared.metrics << info.tag;
                declared.metricInfos.insert(info.tag, info);
            }
        }
        declared.paramValues << found->values;
        declared.anyStatus = declared.anyStatus || !found->status.isEmpty();
    }
    return declared;
}

RunComparison::Column RunComparison::runColumn()
{
    Column runColumn;
    runColumn.key = QStringLiteral("run");
    runColumn.title = tr("Run");
    runColumn.kind = ColumnKind::Run;
    runColumn.defaultVisible = true;
    return runColumn;
}

RunComparison::Column RunComparison::statusColumn()
{
    Column c;
    c.key = QStringLiteral("status");
    c.title = tr("Status");
    c.description = tr("How the hparams session ended");
    c.kind = ColumnKind::Status;
    return c;
}

void RunComparison::addHParamColumns(std::vector<Column>& columns, const Declarations& declared)
{
    const std::size_t firstParam = columns.size();
    addValueColumns(columns, ColumnKind::HParam, QStringLiteral("hparam/"), declared.paramValues, declared.params);
    for (std::size_t i = firstParam; i < columns.size(); ++i) {
        const HParamInfo info = declared.paramInfos.value(columns[i].name);
        if (!info.displayName.isEmpty())
            columns[i].title = info.displayName;
        columns[i].description = info.description;
    }
}

void RunComparison::addLineageColumns(std::vector<Column>& columns, const QHash<QString, QVariantMap>& lineage)
{
    // MindSpore lineage: the known keys in reading order, then evaluation metrics and user values.
    QStringList lineageOrder;
    for (const LineageKey& k : kLineageKeys)
        lineageOrder << QString::fromLatin1(k.key);
    const std::size_t firstLineage = columns.size();
    addValueColumns(columns, ColumnKind::Lineage, QStringLiteral("lineage/"), lineage.values(), lineageOrder);
    for (std::size_t i = firstLineage; i < columns.size(); ++i) {
        Column& c = columns[i];
        const auto known = std::find_if(std::begin(kLineageKeys), std::end(kLineageKeys),
                                        [&](const LineageKey& k) { return c.name == QLatin1String(k.key); });
        if (known != std::end(kLineageKeys)) {
            c.title = tr(known->title);
            c.defaultVisible = known->defaultVisible;
        } else if (c.name.startsWith(QLatin1String("metric/"))) {
            c.title = tr("%1 (evaluation)").arg(c.name.mid(7));
        } else if (c.name.startsWith(QLatin1String("user/"))) {
            c.title = tr("%1 (user)").arg(c.name.mid(5));
        }
        c.description = tr("MindSpore lineage: %1").arg(c.name);
    }
}

void RunComparison::updateMetricGroups(const Declarations& declared)
{
    m_metricGroups.clear();
    for (auto it = declared.metricInfos.cbegin(); it != declared.metricInfos.cend(); ++it) {
        if (!it->group.isEmpty())
            m_metricGroups.insert(it.key(), it->group);
    }
}

void RunComparison::addMetricColumns(std::vector<Column>& columns, const Declarations& declared) const
{
    // Metrics: declared ones first, then every scalar tag.
    QStringList tags = declared.metrics;
    if (m_scalars) {
        for (const QString& tag : m_scalars->tags()) {
            if (!tags.contains(tag))
                tags << tag;
        }
    }
    const bool anyLossLike
        = std::any_of(tags.cbegin(), tags.cend(), [](const QString& t) { return minimizesByName(t); });
    int shownWithoutReason = 0;
    for (const QString& tag : std::as_const(tags)) {
        const bool isDeclared = declared.metrics.contains(tag);
        const MetricInfo info = declared.metricInfos.value(tag);
        const QString name = info.displayName.isEmpty() ? tag : info.displayName;
        // With neither declared nor loss-like metrics, the first few tags stand in for them.
        const bool showFinal = isDeclared || (declared.metrics.isEmpty() && minimizesByName(tag))
            || (declared.metrics.isEmpty() && !anyLossLike && shownWithoutReason++ < 3);
        Column finalColumn;
        finalColumn.key = QStringLiteral("final/") + tag;
        finalColumn.title = tr("%1 (final)").arg(name);
        finalColumn.description = info.description;
        finalColumn.kind = ColumnKind::MetricFinal;
        finalColumn.name = tag;
        finalColumn.numeric = true;
        finalColumn.declared = isDeclared;
        finalColumn.defaultVisible = showFinal;
        columns.push_back(finalColumn);
        Column best = finalColumn;
        best.key = QStringLiteral("best/") + tag;
        best.title = tr("%1 (best)").arg(name);
        best.kind = ColumnKind::MetricBest;
        best.defaultVisible = isDeclared;
        columns.push_back(best);
        Column bestStep = finalColumn;
        bestStep.key = QStringLiteral("beststep/") + tag;
        bestStep.title = tr("%1 (best step)").arg(name);
        bestStep.kind = ColumnKind::MetricBestStep;
        bestStep.defaultVisible = false;
        columns.push_back(bestStep);
    }
}

std::vector<std::vector<QVariant>> RunComparison::buildCells(const RunInputs& inputs,
                                                             const std::vector<Column>& columns) const
{
    std::vector<std::vector<QVariant>> cells(std::size_t(inputs.runs.size()));
    QHash<QString, MetricSummary> summaries;
    for (qsizetype r = 0; r < inputs.runs.size(); ++r) {
        const QString& run = inputs.runs.at(r);
        const HParams h = inputs.hparams.value(run);
        const QVariantMap l = inputs.lineage.value(run);
        std::vector<QVariant>& row = cells[std::size_t(r)];
        row.resize(columns.size());
        summaries.clear();
        for (std::size_t c = 0; c < columns.size(); ++c)
            row[c] = cellValue(columns[c], run, h, l, summaries);
    }
    return cells;
}

QVariant RunComparison::cellValue(const Column& col, const QString& run, const HParams& h, const QVariantMap& l,
                                  QHash<QString, MetricSummary>& summaries) const
{
    switch (col.kind) {
    case ColumnKind::Run:
        return run;
    case ColumnKind::HParam:
        return h.values.value(col.name);
    case ColumnKind::Lineage:
        return l.value(col.name);
    case ColumnKind::Status:
        if (!h.status.isEmpty())
            return h.status;
        return {};
    case ColumnKind::MetricFinal:
    case ColumnKind::MetricBest:
    case ColumnKind::MetricBestStep: {
        auto found = summaries.find(col.name);
        if (found == summaries.end())
            found = summaries.insert(col.name, metric(run, col.name));
        const MetricSummary& s = *found;
        if (!s.valid)
            return {};
        if (col.kind == ColumnKind::MetricFinal)
            return s.finalValue;
        if (std::isnan(s.best))
            return {};
        if (col.kind == ColumnKind::MetricBest)
            return s.best;
        return s.bestStep;
    }
    }
    return {};
}

void RunComparison::publish(const QStringList& runs, std::vector<Column> columns,
                            std::vector<std::vector<QVariant>> cells)
{
    // A change that keeps the runs and columns updates the cells in place so views keep their selection.
    const bool sameShape = runs == m_runs && columns.size() == m_columns.size()
        && std::equal(columns.cbegin(), columns.cend(), m_columns.cbegin(), [](const Column& a, const Column& b) {
                               return a.key == b.key && a.title == b.title && a.numeric == b.numeric;
                           });
    if (sameShape) {
        m_columns = std::move(columns);
        m_cells = std::move(cells);
        if (!m_runs.isEmpty() && !m_columns.empty())
            emit dataChanged(index(0, 0), index(int(m_runs.size()) - 1, int(m_columns.size()) - 1));
        return;
    }
    beginResetModel();
    m_runs = runs;
    m_columns = std::move(columns);
    m_cells = std::move(cells);
    endResetModel();
    emit structureChanged();
}

int RunComparison::columnOf(const QString& key) const
{
    for (std::size_t i = 0; i < m_columns.size(); ++i) {
        if (m_columns[i].key == key)
            return int(i);
    }
    return -1;
}

QVariant RunComparison::value(int row, int column) const
{
    if (row < 0 || row >= int(m_cells.size()) || column < 0 || column >= int(m_columns.size()))
        return {};
    return m_cells[std::size_t(row)][std::size_t(column)];
}

double RunComparison::number(int row, int column) const
{
    const QVariant v = value(row, column);
    return isNumber(v) ? v.toDouble() : std::numeric_limits<double>::quiet_NaN();
}

int RunComparison::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_runs.size());
}

int RunComparison::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_columns.size());
}

QString RunComparison::formatValue(const QVariant& value)
{
    if (!value.isValid())
        return {};
    switch (value.typeId()) {
    case QMetaType::Double:
    case QMetaType::Float: {
        const double v = value.toDouble();
        if (std::isnan(v))
            return QStringLiteral("nan");
        if (std::isinf(v))
            return v > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
        return QString::number(v, 'g', 6);
    }
    case QMetaType::Bool:
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    default:
        return value.toString();
    }
}

QString RunComparison::runDisplayName(const QString& run) const
{
    // Either store may be the one that knows the opened folder.
    QString name = m_summaries ? m_summaries->runDisplayName(run) : run;
    if (name == run && m_scalars)
        name = m_scalars->runDisplayName(run);
    return name;
}

QVariant RunComparison::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Column& col = m_columns[std::size_t(index.column())];
    const QVariant& v = m_cells[std::size_t(index.row())][std::size_t(index.column())];
    // The run column shows the run as users see it; the run itself stays the key (RunRole, sorting).
    auto runName = [&] { return runDisplayName(m_runs.at(index.row())); };
    switch (role) {
    case Qt::DisplayRole:
        return col.kind == ColumnKind::Run ? runName() : formatValue(v);
    case Qt::ToolTipRole: {
        if (!v.isValid())
            return {};
        // The run cell holds the run's key ("." for the opened folder's own run); it is named as shown.
        QString tip = QStringLiteral("<b>%1</b><br>%2: %3")
                          .arg(runName().toHtmlEscaped(), col.title.toHtmlEscaped(),
                               (col.kind == ColumnKind::Run ? runName() : formatValue(v)).toHtmlEscaped());
        if (col.kind == ColumnKind::MetricBest || col.kind == ColumnKind::MetricFinal) {
            const MetricSummary s = metric(m_runs.at(index.row()), col.name);
            tip += QStringLiteral("<br>")
                + tr("final %1 at step %2; best %3 at step %4 of %5 values")
                      .arg(formatValue(s.finalValue))
                      .arg(s.finalStep)
                      .arg(formatValue(s.best))
                      .arg(s.bestStep)
                      .arg(s.points);
        }
        return tip;
    }
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(
            Qt::Alignment((col.numeric || isNumber(v) ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter));
    case SortRole:
        if (!v.isValid())
            return {};
        if (isNumber(v)) {
            // NaN compares false both ways, which would leave its place to chance; it sorts lowest.
            const double d = v.toDouble();
            return std::isnan(d) ? -std::numeric_limits<double>::infinity() : d;
        }
        return formatValue(v);
    case ValueRole:
        return v;
    case RunRole:
        return m_runs.at(index.row());
    default:
        return {};
    }
}

QVariant RunComparison::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= int(m_columns.size()))
        return QAbstractTableModel::headerData(section, orientation, role);
    const Column& col = m_columns[std::size_t(section)];
    switch (role) {
    case Qt::DisplayRole:
        return col.title;
    case Qt::ToolTipRole: {
        QStringList lines;
        lines << col.title;
        if (!col.description.isEmpty())
            lines << col.description;
        if (col.kind == ColumnKind::MetricBest || col.kind == ColumnKind::MetricBestStep)
            lines << (effectiveGoal(col.name) == Goal::Minimize ? tr("Best is the lowest value")
                                                                : tr("Best is the highest value"));
        if (col.declared)
            lines << tr("A metric declared by the hparams experiment");
        return lines.join(QLatin1Char('\n'));
    }
    case ColumnKeyRole:
        return col.key;
    default:
        return QAbstractTableModel::headerData(section, orientation, role);
    }
}

} // namespace runlens::models::summary
