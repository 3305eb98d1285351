#include "widgets/scalars/scalarspanel.h"

#include "models/scalars/scalarstore.h"
#include "widgets/scalars/chartsection.h"
#include "widgets/scalars/runlegendmodel.h"
#include "widgets/scalars/scalarstoolbar.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSlider>

// The Scalars panel's settings that every chart follows (smoothing, x axis, log scale, outliers, visible runs),
// what it shows (tags, groups, charts), and its state in a saved session.

namespace runlens::widgets::scalars {

void ScalarsPanel::setSmoothing(double weight)
{
    weight = std::isfinite(weight) ? std::clamp(weight, 0.0, 0.999) : 0.0;
    m_toolbar->setSmoothing(weight);
    if (weight == m_options.smoothing)
        return;
    m_options.smoothing = weight;
    for (ScalarChart* chart : std::as_const(m_charts))
        chart->setSmoothing(weight);
    emit optionsChanged();
}

void ScalarsPanel::setXAxisMode(XAxisMode mode)
{
    m_toolbar->setXAxisMode(mode);
    if (mode == m_options.xAxisMode)
        return;
    m_options.xAxisMode = mode;
    for (ScalarChart* chart : std::as_const(m_charts))
        chart->setXAxisMode(mode);
    emit optionsChanged();
}

void ScalarsPanel::setLogY(bool enabled)
{
    m_toolbar->setLogY(enabled);
    if (enabled == m_options.logY)
        return;
    m_options.logY = enabled;
    for (ScalarChart* chart : std::as_const(m_charts))
        chart->setLogY(enabled);
    emit optionsChanged();
}

void ScalarsPanel::setIgnoreOutliers(bool enabled)
{
    m_toolbar->setIgnoreOutliers(enabled);
    if (enabled == m_options.ignoreOutliers)
        return;
    m_options.ignoreOutliers = enabled;
    for (ScalarChart* chart : std::as_const(m_charts))
        chart->setIgnoreOutliers(enabled);
    emit optionsChanged();
}

void ScalarsPanel::setRunVisible(const QString& run, bool visible)
{
    m_runModel->setRunVisible(run, visible);
}

bool ScalarsPanel::isRunVisible(const QString& run) const
{
    return m_runModel->isRunVisible(run);
}

void ScalarsPanel::setVisibleRuns(const QStringList& runs)
{
    m_visibleRunsFilter = runs;
    for (const QString& run : m_runModel->runs())
        setRunVisible(run, runs.isEmpty() || runs.contains(run));
}

QStringList ScalarsPanel::visibleTags() const
{
    QStringList out;
    const bool filtering = !m_filter.pattern().isEmpty();
    for (const QString& group : orderedGroups()) {
        for (const QString& tag : m_groups.value(group)) {
            if (!filtering || m_filter.match(tag).hasMatch())
                out << tag;
        }
    }
    return out;
}

QStringList ScalarsPanel::visibleGroups() const
{
    QStringList out;
    const bool filtering = !m_filter.pattern().isEmpty();
    for (const QString& group : orderedGroups()) {
        const QStringList tags = m_groups.value(group);
        if (!filtering
            || std::any_of(tags.begin(), tags.end(), [this](const QString& t) { return m_filter.match(t).hasMatch(); }))
            out << group;
    }
    return out;
}

ScalarChart* ScalarsPanel::chartForTag(const QString& tag) const
{
    ScalarChart* chart = m_charts.value(tag);
    if (!chart)
        return nullptr;
    const ChartSection* section = m_sections.value(groupOfTag(tag));
    return section && section->widgets().contains(chart) ? chart : nullptr;
}

QList<ScalarChart*> ScalarsPanel::charts() const
{
    QList<ScalarChart*> out;
    for (const QString& tag : visibleTags()) {
        if (ScalarChart* chart = chartForTag(tag))
            out << chart;
    }
    return out;
}

ChartSection* ScalarsPanel::sectionForGroup(const QString& group) const
{
    return m_sections.value(group);
}

void ScalarsPanel::setGroupExpanded(const QString& group, bool expanded)
{
    if (expanded)
        m_collapsedGroups.remove(group);
    else
        m_collapsedGroups.insert(group);
    if (ChartSection* section = m_sections.value(group))
        section->setExpanded(expanded);
}

void ScalarsPanel::fitAll()
{
    for (ScalarChart* chart : std::as_const(m_charts))
        chart->fitToData();
}

void ScalarsPanel::setWheelZoomModifiers(Qt::KeyboardModifiers modifiers)
{
    m_wheelZoomModifiers = modifiers;
    for (ScalarChart* chart : std::as_const(m_charts))
        chart->setWheelZoomModifiers(modifiers);
}

void ScalarsPanel::setExportFileNameProvider(ChartExportMenu::FileNameProvider provider)
{
    m_fileNameProvider = std::move(provider);
    for (ScalarChart* chart : std::as_const(m_charts))
        chart->exportMenu()->setFileNameProvider(m_fileNameProvider);
}

void ScalarsPanel::setExportDirectory(const QString& directory)
{
    m_exportDirectory = directory;
    for (ScalarChart* chart : std::as_const(m_charts))
        chart->exportMenu()->setDefaultDirectory(directory);
}

QVariantMap ScalarsPanel::saveState() const
{
    QVariantMap state;
    state.insert(QStringLiteral("smoothing"), m_options.smoothing);
    state.insert(QStringLiteral("xAxis"), scalarformat::axisModeKey(m_options.xAxisMode));
    state.insert(QStringLiteral("logY"), m_options.logY);
    state.insert(QStringLiteral("ignoreOutliers"), m_options.ignoreOutliers);
    state.insert(QStringLiteral("filter"), tagFilter());
    QStringList collapsed(m_collapsedGroups.begin(), m_collapsedGroups.end());
    collapsed.removeOne(kSystemGroup); // folded by default: only its opening is the user's choice
    collapsed.sort();
    state.insert(QStringLiteral("collapsedGroups"), collapsed);
    // Groups folded by default stay open when the user opened them.
    if (!m_collapsedGroups.contains(kSystemGroup))
        state.insert(QStringLiteral("expandedGroups"), QStringList { kSystemGroup });
    QStringList hidden(m_options.hiddenRuns.begin(), m_options.hiddenRuns.end());
    hidden.sort();
    state.insert(QStringLiteral("hiddenRuns"), hidden);
    state.insert(QStringLiteral("splitter"), m_splitter->saveState());
    state.insert(QStringLiteral("cardSize"), cardSizeKey(m_cardSize));
    return state;
}

void ScalarsPanel::restoreState(const QVariantMap& state)
{
    if (state.contains(QStringLiteral("smoothing")))
        setSmoothing(state.value(QStringLiteral("smoothing")).toDouble());
    if (state.contains(QStringLiteral("xAxis")))
        setXAxisMode(scalarformat::axisModeFromKey(state.value(QStringLiteral("xAxis")).toString()));
    if (state.contains(QStringLiteral("logY")))
        setLogY(state.value(QStringLiteral("logY")).toBool());
    if (state.contains(QStringLiteral("ignoreOutliers")))
        setIgnoreOutliers(state.value(QStringLiteral("ignoreOutliers")).toBool());
    for (const QString& group : state.value(QStringLiteral("collapsedGroups")).toStringList())
        setGroupExpanded(group, false);
    for (const QString& group : state.value(QStringLiteral("expandedGroups")).toStringList())
        setGroupExpanded(group, true);
    for (const QString& run : state.value(QStringLiteral("hiddenRuns")).toStringList())
        setRunVisible(run, false);
    if (state.contains(QStringLiteral("splitter")))
        m_splitter->restoreState(state.value(QStringLiteral("splitter")).toByteArray());
    if (state.contains(QStringLiteral("filter")))
        setTagFilter(state.value(QStringLiteral("filter")).toString());
    if (state.contains(QStringLiteral("cardSize")))
        setCardSize(cardSizeFromKey(state.value(QStringLiteral("cardSize")).toString()));
}

QVariantMap ScalarsPanel::xRanges() const
{
    QVariantMap ranges = m_pendingXRanges;
    for (auto it = m_charts.cbegin(); it != m_charts.cend(); ++it) {
        if (!it.value()->isAutoFit()) {
            const QCPRange range = it.value()->xRange();
            ranges.insert(it.key(), QVariantList { range.lower, range.upper });
        }
    }
    return ranges;
}

void ScalarsPanel::setXRanges(const QVariantMap& ranges)
{
    m_pendingXRanges.clear();
    for (auto it = ranges.cbegin(); it != ranges.cend(); ++it) {
        const QVariantList range = it.value().toList();
        if (range.size() != 2)
            continue;
        if (ScalarChart* chart = m_charts.value(it.key()))
            chart->setXRange(range[0].toDouble(), range[1].toDouble());
        else
            m_pendingXRanges.insert(it.key(), range);
    }
}

} // namespace runlens::widgets::scalars
