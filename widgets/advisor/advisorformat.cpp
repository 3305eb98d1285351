#include "widgets/advisor/advisorformat.h"

#include "models/advisor/advisor.h"
#include "models/advisor/evidence.h"
#include "widgets/common/charticons.h"

#include <QApplication>
#include <QCoreApplication>
#include <QStyle>

namespace runlens::widgets::advisor {

namespace {

constexpr char kContext[] = "runlens::advisor::AdvisorFormat";

QString nanoseconds(const QString& text)
{
    bool ok = false;
    const double ns = text.toDouble(&ok);
    return ok ? models::advisor::formatValue(ns, models::advisor::Unit::Nanoseconds) : text;
}

} // namespace

QString unitSuffix(models::advisor::Unit unit)
{
    switch (unit) {
    case models::advisor::Unit::Percent:
        return QStringLiteral(" %");
    case models::advisor::Unit::Milliseconds:
        return QStringLiteral(" ms");
    case models::advisor::Unit::Nanoseconds:
        return QStringLiteral(" ns");
    case models::advisor::Unit::Bytes:
        return QStringLiteral(" B");
    case models::advisor::Unit::Value:
    case models::advisor::Unit::Count:
    case models::advisor::Unit::Ratio:
        break;
    }
    return {};
}

QString scopeText(const models::advisor::Scope& scope)
{
    QStringList parts;
    if (!scope.run.isEmpty())
        parts << QCoreApplication::translate("runlens::advisor::AdvisorFormat", "run %1").arg(scope.shownRun());
    if (scope.rank)
        parts << QCoreApplication::translate("runlens::advisor::AdvisorFormat", "rank %1").arg(*scope.rank);
    if (!scope.device.isEmpty())
        parts << scope.device;
    if (scope.step)
        parts << QCoreApplication::translate("runlens::advisor::AdvisorFormat", "step %1").arg(*scope.step);
    if (!scope.layer.isEmpty())
        parts << QCoreApplication::translate("runlens::advisor::AdvisorFormat", "layer %1").arg(scope.layer);
    if (!scope.node.isEmpty() && scope.node != scope.layer)
        parts << QCoreApplication::translate("runlens::advisor::AdvisorFormat", "node %1").arg(scope.node);
    if (!scope.tensor.isEmpty())
        parts << QCoreApplication::translate("runlens::advisor::AdvisorFormat", "tensor %1").arg(scope.tensor);
    if (!scope.op.isEmpty())
        parts << QCoreApplication::translate("runlens::advisor::AdvisorFormat", "op %1").arg(scope.op);
    if (!scope.link.isEmpty())
        parts << QCoreApplication::translate("runlens::advisor::AdvisorFormat", "link %1").arg(scope.link);
    return parts.join(QStringLiteral(" \u00b7 "));
}

QString describeEvidence(const QString& locator, const models::advisor::Scope& scope)
{
    const std::optional<models::advisor::Evidence> evidence = models::advisor::parseEvidence(locator);
    if (!evidence)
        return locator;
    const models::advisor::Evidence& e = *evidence;
    QStringList where;
    auto add = [&](const char* key, const char* format) {
        QString value = e.value(QLatin1String(key));
        if (!e.has(QLatin1String(key)) || value.isEmpty())
            return;
        if (qstrcmp(key, "run") == 0 && value == scope.run)
            value = scope.shownRun();
        where << QCoreApplication::translate(kContext, format).arg(value);
    };
    QString what;
    if (e.kind == QLatin1String("scalar") || e.kind == QLatin1String("histogram")) {
        what = e.kind == QLatin1String("scalar")
            ? QCoreApplication::translate("runlens::advisor::AdvisorFormat", "Chart %1")
                  .arg(e.value(QStringLiteral("tag")))
            : QCoreApplication::translate("runlens::advisor::AdvisorFormat", "Histogram %1")
                  .arg(e.value(QStringLiteral("tag")));
        add("run", QT_TRANSLATE_NOOP("runlens::advisor::AdvisorFormat", "run %1"));
        add("step", QT_TRANSLATE_NOOP("runlens::advisor::AdvisorFormat", "step %1"));
    } else if (e.kind == QLatin1String("tensor")) {
        what = QCoreApplication::translate("runlens::advisor::AdvisorFormat", "Tensor %1")
                   .arg(e.value(QStringLiteral("name")));
        add("run", QT_TRANSLATE_NOOP("runlens::advisor::AdvisorFormat", "run %1"));
        add("step", QT_TRANSLATE_NOOP("runlens::advisor::AdvisorFormat", "step %1"));
    } else if (e.kind == QLatin1String("graph")) {
        what = QCoreApplication::translate("runlens::advisor::AdvisorFormat", "Graph node %1")
                   .arg(e.value(QStringLiteral("node")));
    } else if (e.kind == QLatin1String("trace")) {
        what = QCoreApplication::translate("runlens::advisor::AdvisorFormat", "Timeline %1 \u2013 %2")
                   .arg(nanoseconds(e.value(QStringLiteral("start_ns"))),
                        nanoseconds(e.value(QStringLiteral("end_ns"))));
        add("op", QT_TRANSLATE_NOOP("runlens::advisor::AdvisorFormat", "op %1"));
        add("rank", QT_TRANSLATE_NOOP("runlens::advisor::AdvisorFormat", "rank %1"));
    } else if (e.kind == QLatin1String("memory")) {
        what = QCoreApplication::translate("runlens::advisor::AdvisorFormat", "Memory of %1 at %2")
                   .arg(e.value(QStringLiteral("device")), nanoseconds(e.value(QStringLiteral("time_ns"))));
    } else if (e.kind == QLatin1String("profiler")) {
        what = e.value(QStringLiteral("view")) == QLatin1String("pipeline")
            ? QCoreApplication::translate("runlens::advisor::AdvisorFormat", "Data pipeline")
            : QCoreApplication::translate("runlens::advisor::AdvisorFormat", "Overview");
        add("run", QT_TRANSLATE_NOOP("runlens::advisor::AdvisorFormat", "run %1"));
        add("rank", QT_TRANSLATE_NOOP("runlens::advisor::AdvisorFormat", "rank %1"));
        add("step", QT_TRANSLATE_NOOP("runlens::advisor::AdvisorFormat", "step %1"));
    } else if (e.kind == QLatin1String("cluster")) {
        what = QCoreApplication::translate("runlens::advisor::AdvisorFormat", "Cluster");
        add("run", QT_TRANSLATE_NOOP("runlens::advisor::AdvisorFormat", "run %1"));
        add("rank", QT_TRANSLATE_NOOP("runlens::advisor::AdvisorFormat", "rank %1"));
        add("link", QT_TRANSLATE_NOOP("runlens::advisor::AdvisorFormat", "link %1"));
    } else {
        return locator;
    }
    return where.isEmpty() ? what : QStringLiteral("%1 (%2)").arg(what, where.join(QStringLiteral(", ")));
}

QIcon severityIcon(models::advisor::Severity severity)
{
    switch (severity) {
    case models::advisor::Severity::Error:
        return chartIcon(QStringLiteral("status-error"));
    case models::advisor::Severity::Warning:
        return chartIcon(QStringLiteral("status-warning"));
    case models::advisor::Severity::Info:
        break;
    }
    return qApp ? qApp->style()->standardIcon(QStyle::SP_MessageBoxInformation) : QIcon();
}

} // namespace runlens::widgets::advisor
