#include "models/tensor/tensorlistmodel.h"

#include "models/core/runmanifest.h"

#include <QLocale>
#include <QRegularExpression>
#include <QStringList>

namespace runlens::models::tensor {

namespace {

/// internalId of top-level rows; a series row under group g carries g + 1.
constexpr quintptr kTopLevel = 0;

} // namespace

TensorListModel::TensorListModel(QObject* parent)
    : QAbstractItemModel(parent)
{ }

TensorListModel::~TensorListModel() = default;

void TensorListModel::setCatalog(std::shared_ptr<const TensorCatalog> catalog)
{
    beginResetModel();
    m_catalog = std::move(catalog);
    m_groups.clear();
    m_groupOfSeries.clear();
    m_rowOfSeries.clear();
    m_nanInf.clear();
    if (m_catalog) {
        const QList<TensorSeries>& all = m_catalog->series();
        // The catalog is sorted by run, then rank, so equal keys are adjacent.
        for (int i = 0; i < all.size(); ++i) {
            if (m_groups.isEmpty() || m_groups.last().run != all[i].run || m_groups.last().rank != all[i].rank)
                m_groups.append(Group { all[i].run, all[i].rank, {} });
            m_groupOfSeries.append(int(m_groups.size()) - 1);
            m_rowOfSeries.append(int(m_groups.last().series.size()));
            m_groups.last().series.append(i);
        }
    }
    endResetModel();
}

void TensorListModel::setStatistics(const QString& location, bool hasNanOrInf)
{
    if (!m_catalog)
        return;
    const auto [series, version] = m_catalog->findLocation(location);
    if (series < 0)
        return;
    const auto it = m_nanInf.constFind(location);
    if (it != m_nanInf.constEnd() && *it == hasNanOrInf)
        return;
    m_nanInf.insert(location, hasNanOrInf);
    const QModelIndex first = indexOfSeries(series, 0);
    emit dataChanged(first, first.siblingAtColumn(ColumnCount - 1));
}

std::optional<bool> TensorListModel::seriesHasNanOrInf(int series) const
{
    if (!m_catalog || series < 0 || series >= m_catalog->series().size())
        return std::nullopt;
    std::optional<bool> out;
    for (const TensorInfo& info : m_catalog->series()[series].versions) {
        const auto it = m_nanInf.constFind(info.location());
        if (it == m_nanInf.constEnd())
            continue;
        out = out.value_or(false) || *it;
    }
    return out;
}

QModelIndex TensorListModel::indexOfSeries(int series, int column) const
{
    if (series < 0 || series >= m_groupOfSeries.size())
        return {};
    if (!isGrouped())
        return createIndex(series, column, kTopLevel);
    return createIndex(m_rowOfSeries[series], column, quintptr(m_groupOfSeries[series]) + 1);
}

int TensorListModel::seriesAt(const QModelIndex& index) const
{
    if (!index.isValid() || index.model() != this)
        return -1;
    if (!isGrouped())
        return index.row();
    if (index.internalId() == kTopLevel)
        return -1;
    return m_groups[int(index.internalId() - 1)].series.value(index.row(), -1);
}

QModelIndex TensorListModel::index(int row, int column, const QModelIndex& parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, kTopLevel);
    return createIndex(row, column, quintptr(parent.row()) + 1);
}

QModelIndex TensorListModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() == kTopLevel)
        return {};
    return createIndex(int(child.internalId() - 1), 0, kTopLevel);
}

int TensorListModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return isGrouped() ? int(m_groups.size()) : int(m_groupOfSeries.size());
    if (parent.column() != 0 || !isGrouped() || parent.internalId() != kTopLevel)
        return 0;
    return int(m_groups[parent.row()].series.size());
}

int TensorListModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant TensorListModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const int series = seriesAt(index);
    if (series >= 0)
        return seriesData(series, index.column(), role);
    return groupData(index.row(), index.column(), role);
}

QString TensorListModel::groupLabel(const Group& group) const
{
    // The builder names tensors directly in the opened folder's run ".".
    const QString run = group.run.isEmpty()                   ? tr("(no run)")
        : group.run == QLatin1String(".") && m_root.isEmpty() ? tr("(top folder)")
                                                              : runDisplayName(m_root, group.run);
    return group.rank < 0 ? run : tr("%1 · rank %2").arg(run).arg(group.rank);
}

QVariant TensorListModel::groupData(int group, int column, int role) const
{
    const Group& g = m_groups[group];
    switch (role) {
    case Qt::DisplayRole:
        if (column == NameColumn)
            return groupLabel(g);
        if (column == StepsColumn)
            return {};
        return {};
    case Qt::ToolTipRole:
        return tr("%1: %n tensor series", nullptr, int(g.series.size())).arg(groupLabel(g));
    case SeriesIndexRole:
        return -1;
    case SortRole:
        return groupLabel(g);
    default:
        return {};
    }
}

QVariant TensorListModel::seriesData(int series, int column, int role) const
{
    const TensorSeries& s = m_catalog->series()[series];
    const TensorInfo* last = s.versions.isEmpty() ? nullptr : &s.versions.last();
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case NameColumn:
            return s.name;
        case KindColumn:
            return s.kind;
        case ShapeColumn:
            return last ? shapeText(last->shape) : QString();
        case DTypeColumn:
            return last ? QString::fromLatin1(dtypeName(last->dtype)) : QString();
        case SizeColumn:
            return last ? humanBytes(last->byteSize) : QString();
        case StepsColumn:
            return int(s.versions.size());
        case StatusColumn: {
            const std::optional<bool> bad = seriesHasNanOrInf(series);
            if (!bad)
                return {};
            return *bad ? tr("NaN/Inf") : tr("finite");
        }
        }
        return {};
    case Qt::TextAlignmentRole:
        if (column == SizeColumn || column == StepsColumn)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::ToolTipRole: {
        QStringList lines;
        lines << s.name;
        if (last) {
            lines << last->typeText();
            for (const TensorInfo& info : s.versions) {
                const QString where = info.location();
                lines << (info.step >= 0 ? tr("step %1: %2").arg(info.step).arg(where) : where);
            }
        }
        if (seriesHasNanOrInf(series).value_or(false))
            lines << tr("Holds NaN or Inf values.");
        return lines.join(QLatin1Char('\n'));
    }
    case SeriesIndexRole:
        return series;
    case LocationRole:
        return last ? last->location() : QString();
    case KindRole:
        return s.kind;
    case StepsRole:
        return QVariant::fromValue(s.steps());
    case NanInfRole: {
        const std::optional<bool> bad = seriesHasNanOrInf(series);
        return bad ? QVariant(*bad) : QVariant();
    }
    case SortRole:
        switch (column) {
        case SizeColumn:
            return qlonglong(last ? last->byteSize : 0);
        case StepsColumn:
            return int(s.versions.size());
        case ShapeColumn:
            return qlonglong(last ? last->elementCount() : 0);
        default:
            return seriesData(series, column, Qt::DisplayRole);
        }
    default:
        return {};
    }
}

QVariant TensorListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Name");
    case KindColumn:
        return tr("Kind");
    case ShapeColumn:
        return tr("Shape");
    case DTypeColumn:
        return tr("Type");
    case SizeColumn:
        return tr("Size");
    case StepsColumn:
        return tr("Steps");
    case StatusColumn:
        return tr("Values");
    }
    return {};
}

QString TensorListModel::humanBytes(std::int64_t bytes)
{
    return QLocale::c().formattedDataSize(bytes, 1, QLocale::DataSizeIecFormat);
}

TensorFilterModel::TensorFilterModel(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setRecursiveFilteringEnabled(true);
    setSortRole(TensorListModel::SortRole);
}

QString TensorFilterModel::syntaxHelp()
{
    return tr("Words must all occur in the tensor name. Also:\n"
              "kind:weight   kind contains 'weight'\n"
              "step:30       has a version at step 30\n"
              "step:10-50    has a version between steps 10 and 50\n"
              "dtype:float16 element type contains 'float16'\n"
              "run:baseline  run name contains 'baseline'\n"
              "Example: conv1 kind:weight step:30");
}

void TensorFilterModel::setQuery(const QString& query)
{
    m_query = query;
    QList<Term> terms;
    static const QRegularExpression space(QStringLiteral("\\s+"));
    for (const QString& word : query.split(space, Qt::SkipEmptyParts)) {
        Term term;
        const int colon = word.indexOf(QLatin1Char(':'));
        const QString key = colon > 0 ? word.left(colon).toLower() : QString();
        const QString value = colon > 0 ? word.mid(colon + 1) : word;
        if (key == QLatin1String("kind"))
            term.kind = Term::Kind::TensorKind;
        else if (key == QLatin1String("run"))
            term.kind = Term::Kind::Run;
        else if (key == QLatin1String("dtype") || key == QLatin1String("type"))
            term.kind = Term::Kind::DType;
        else if (key == QLatin1String("step"))
            term.kind = Term::Kind::Step;
        term.text = term.kind == Term::Kind::Name ? word : value;
        if (term.kind == Term::Kind::Step) {
            const int dash = value.indexOf(QLatin1Char('-'), 1);
            bool okFrom = false, okTo = false;
            term.stepFrom = (dash > 0 ? value.left(dash) : value).toInt(&okFrom);
            term.stepTo = dash > 0 ? value.mid(dash + 1).toInt(&okTo) : term.stepFrom;
            if (dash < 0)
                okTo = okFrom;
            if (!okFrom || !okTo) {
                term.stepFrom = 0;
                term.stepTo = -1;
            }
        }
        if (term.kind != Term::Kind::Step && term.text.isEmpty())
            continue; // `kind:` while still typing
        terms << term;
    }
    m_terms = terms;
    invalidateFilter();
}

bool TensorFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    if (m_terms.isEmpty())
        return true;
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    const int series = index.data(TensorListModel::SeriesIndexRole).toInt();
    const auto* model = qobject_cast<const TensorListModel*>(sourceModel());
    if (series < 0 || !model || !model->catalog())
        return false; // group rows show when a child matches (recursive filtering)
    const TensorSeries& s = model->catalog()->series()[series];
    for (const Term& term : m_terms) {
        switch (term.kind) {
        case Term::Kind::Name:
            if (!s.name.contains(term.text, Qt::CaseInsensitive))
                return false;
            break;
        case Term::Kind::TensorKind:
            if (!s.kind.contains(term.text, Qt::CaseInsensitive))
                return false;
            break;
        case Term::Kind::Run:
            if (!s.run.contains(term.text, Qt::CaseInsensitive))
                return false;
            break;
        case Term::Kind::DType: {
            bool any = false;
            for (const TensorInfo& info : s.versions)
                any = any || QLatin1String(dtypeName(info.dtype)).contains(term.text, Qt::CaseInsensitive);
            if (!any)
                return false;
            break;
        }
        case Term::Kind::Step: {
            bool any = false;
            for (const TensorInfo& info : s.versions)
                any = any || (info.step >= term.stepFrom && info.step <= term.stepTo);
            if (!any)
                return false;
            break;
        }
        }
    }
    return true;
}

} // namespace runlens::models::tensor
