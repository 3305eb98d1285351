#include "models/accuracy/compareresult.h"

#include <QCoreApplication>
#include <QJsonArray>

#include <cmath>

namespace runlens::models::accuracy {

namespace {

struct Text
{
    Q_DECLARE_TR_FUNCTIONS(runlens::accuracy)
};

QJsonValue number(const std::optional<double>& v)
{
    return v && std::isfinite(*v) ? QJsonValue(*v) : QJsonValue(QJsonValue::Null);
}

QJsonValue text(const QString& s, bool present)
{
    return present ? QJsonValue(s) : QJsonValue(QJsonValue::Null);
}

QJsonValue shapeJson(const std::vector<std::int64_t>& shape, bool present)
{
    if (!present)
        return QJsonValue::Null;
    QJsonArray a;
    for (std::int64_t d : shape)
        a.append(qint64(d));
    return a;
}

/// Statistics mode puts the largest absolute and relative difference of Max/Min/Mean/Norm in the columns
/// max_abs and max_rel.
std::optional<double> largest(const std::array<std::optional<double>, 4>& values, bool absolute)
{
    std::optional<double> best;
    for (const std::optional<double>& v : values) {
        if (!v || std::isnan(*v))
            continue;
        const double x = absolute ? std::abs(*v) : *v;
        if (!best || x > *best)
            best = x;
    }
    return best;
}

struct RowValues
{
    std::optional<double> cosine, maxAbs, maxRel, meanAbs, rmse, relEuclidean, within1, within5;
    std::optional<std::int64_t> underflow, overflow, nanMismatch;
};

RowValues valuesOf(const CompareRow& row, CompareMode mode)
{
    RowValues v;
    if (row.verdict == Verdict::Unmatched)
        return v;
    if (mode == CompareMode::Statistics) {
        if (row.statistics) {
            v.maxAbs = largest(row.statistics->diff, true);
            v.maxRel = largest(row.statistics->rel, false);
        }
        return v;
    }
    if (mode == CompareMode::Md5 || !row.tensor.compared)
        return v;
    const TensorMetrics& m = row.tensor;
    v.cosine = m.cosine;
    v.maxAbs = m.maxAbs;
    v.maxRel = m.maxRel;
    v.meanAbs = m.meanAbs;
    v.rmse = m.rmse;
    v.relEuclidean = m.relEuclidean;
    v.within1 = m.within1e3;
    v.within5 = m.within5e3;
    v.underflow = m.underflow;
    v.overflow = m.overflow;
    v.nanMismatch = m.nanMismatch + m.infMismatch;
    return v;
}

QJsonValue count(const std::optional<std::int64_t>& v)
{
    return v ? QJsonValue(qint64(*v)) : QJsonValue(QJsonValue::Null);
}

QString cell(const std::optional<double>& v)
{
    return v && std::isfinite(*v) ? QString::number(*v, 'g', 9) : QString();
}

QString cell(const std::optional<std::int64_t>& v)
{
    return v ? QString::number(*v) : QString();
}

QString csvField(QString s)
{
    // A cell starting like a formula is neutralised, as spreadsheets would run it.
    if (!s.isEmpty() && QStringLiteral("=+-@").contains(s.front())
        && !(s.front() == QLatin1Char('-') && s.size() > 1 && s[1].isDigit()))
        s.prepend(QLatin1Char('\''));
    if (s.contains(QLatin1Char(',')) || s.contains(QLatin1Char('"')) || s.contains(QLatin1Char('\n')))
        return QLatin1Char('"') + s.replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
    return s;
}

QString shapeCell(const std::vector<std::int64_t>& shape, bool present)
{
    if (!present)
        return {};
    QStringList dims;
    for (std::int64_t d : shape)
        dims << QString::number(d);
    return QLatin1Char('[') + dims.join(QLatin1Char(',')) + QLatin1Char(']');
}

int groupNumber(const QString& group, QLatin1String prefix)
{
    for (const QString& part : group.split(QLatin1Char('/'))) {
        if (!part.startsWith(prefix))
            continue;
        bool ok = false;
        const int n = part.mid(prefix.size()).toInt(&ok);
        if (ok && n >= 0)
            return n;
    }
    return -1;
}

QJsonValue groupNumberJson(int n)
{
    return n >= 0 ? QJsonValue(n) : QJsonValue(QJsonValue::Null);
}

QString markdownCell(QString s)
{
    return s.replace(QLatin1Char('|'), QStringLiteral("\\|"));
}

} // namespace

int groupStep(const QString& group)
{
    return groupNumber(group, QLatin1String("step"));
}

int groupRank(const QString& group)
{
    return groupNumber(group, QLatin1String("rank"));
}

QString compareModeId(CompareMode mode)
{
    switch (mode) {
    case CompareMode::Tensor:
        return QStringLiteral("tensor");
    case CompareMode::Statistics:
        return QStringLiteral("statistics");
    case CompareMode::Md5:
        return QStringLiteral("md5");
    }
    return {};
}

CompareSummary CompareResult::summary() const
{
    CompareSummary s;
    for (const CompareRow& row : rows) {
        if (row.verdict == Verdict::Unmatched) {
            ++(row.targetName.isEmpty() ? s.unmatchedBench : s.unmatchedTarget);
            continue;
        }
        ++s.matched;
        s.pass += row.verdict == Verdict::Pass;
        s.warning += row.verdict == Verdict::Warning;
        s.error += row.verdict == Verdict::Error;
    }
    return s;
}

Verdict CompareResult::worstVerdict() const
{
    Verdict worst = Verdict::Pass;
    for (const CompareRow& row : rows)
        if (row.verdict == Verdict::Warning || row.verdict == Verdict::Error)
            worst = worse(worst, row.verdict);
    return worst;
}

QJsonObject compareResultToJson(const CompareResult& result)
{
    QJsonObject root;
    root.insert(QStringLiteral("bench"), result.bench);
    root.insert(QStringLiteral("target"), result.target);
    root.insert(QStringLiteral("mode"), compareModeId(result.mode));
    const CompareSummary s = result.summary();
    root.insert(QStringLiteral("summary"),
                QJsonObject { { QStringLiteral("matched"), s.matched },
                              { QStringLiteral("unmatched_bench"), s.unmatchedBench },
                              { QStringLiteral("unmatched_target"), s.unmatchedTarget },
                              { QStringLiteral("pass"), s.pass },
                              { QStringLiteral("warning"), s.warning },
                              { QStringLiteral("error"), s.error } });
    if (const auto& f = result.firstDivergence)
        root.insert(QStringLiteral("first_divergence"),
                    QJsonObject { { QStringLiteral("name"), f->name },
                                  { QStringLiteral("kind"), rowKindId(f->kind) },
                                  { QStringLiteral("index"), f->index },
                                  { QStringLiteral("reason"), f->reason } });
    else
        root.insert(QStringLiteral("first_divergence"), QJsonValue::Null);
    QJsonArray rows;
    for (const CompareRow& row : result.rows) {
        const RowValues v = valuesOf(row, result.mode);
        const bool hasBench = !row.benchName.isEmpty();
        const bool hasTarget = !row.targetName.isEmpty();
        QJsonObject o;
        o.insert(QStringLiteral("name"), row.name);
        o.insert(QStringLiteral("bench_name"), text(row.benchName, hasBench));
        o.insert(QStringLiteral("target_name"), text(row.targetName, hasTarget));
        o.insert(QStringLiteral("kind"), rowKindId(row.kind));
        o.insert(QStringLiteral("index"), row.index);
        o.insert(QStringLiteral("dtype"),
                 QJsonArray { text(row.benchDtype, hasBench), text(row.targetDtype, hasTarget) });
        o.insert(QStringLiteral("shape"),
                 QJsonArray { shapeJson(row.benchShape, hasBench && row.benchHasShape),
                              shapeJson(row.targetShape, hasTarget && row.targetHasShape) });
        o.insert(QStringLiteral("cosine"), number(v.cosine));
        o.insert(QStringLiteral("max_abs"), number(v.maxAbs));
        o.insert(QStringLiteral("max_rel"), number(v.maxRel));
        o.insert(QStringLiteral("mean_abs"), number(v.meanAbs));
        o.insert(QStringLiteral("rmse"), number(v.rmse));
        o.insert(QStringLiteral("rel_euclidean"), number(v.relEuclidean));
        o.insert(QStringLiteral("within_1e-3"), number(v.within1));
        o.insert(QStringLiteral("within_5e-3"), number(v.within5));
        o.insert(QStringLiteral("underflow"), count(v.underflow));
        o.insert(QStringLiteral("overflow"), count(v.overflow));
        o.insert(QStringLiteral("nan_mismatch"), count(v.nanMismatch));
        o.insert(QStringLiteral("verdict"), verdictId(row.verdict));
        o.insert(QStringLiteral("introduced"), row.introduced);
        o.insert(QStringLiteral("step"), groupNumberJson(groupStep(row.group)));
        o.insert(QStringLiteral("rank"), groupNumberJson(groupRank(row.group)));
        rows.append(o);
    }
    root.insert(QStringLiteral("rows"), rows);
    return root;
}

QString compareResultToCsv(const CompareResult& result)
{
    QString out = QStringLiteral("name,bench_name,target_name,kind,index,bench_dtype,target_dtype,bench_shape,"
                                 "target_shape,cosine,max_abs,max_rel,mean_abs,rmse,rel_euclidean,within_1e-3,"
                                 "within_5e-3,underflow,overflow,nan_mismatch,verdict,introduced,step,rank\n");
    for (const CompareRow& row : result.rows) {
        const RowValues v = valuesOf(row, result.mode);
        const QStringList fields {
            csvField(row.name),
            csvField(row.benchName),
            csvField(row.targetName),
            rowKindId(row.kind),
            QString::number(row.index),
            csvField(row.benchDtype),
            csvField(row.targetDtype),
            csvField(shapeCell(row.benchShape, row.benchHasShape)),
            csvField(shapeCell(row.targetShape, row.targetHasShape)),
            cell(v.cosine),
            cell(v.maxAbs),
            cell(v.maxRel),
            cell(v.meanAbs),
            cell(v.rmse),
            cell(v.relEuclidean),
            cell(v.within1),
            cell(v.within5),
            cell(v.underflow),
            cell(v.overflow),
            cell(v.nanMismatch),
            verdictId(row.verdict),
            row.introduced ? QStringLiteral("true") : QStringLiteral("false"),
            groupStep(row.group) >= 0 ? QString::number(groupStep(row.group)) : QString(),
            groupRank(row.group) >= 0 ? QString::number(groupRank(row.group)) : QString(),
        };
        out += fields.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return out;
}

QString compareResultToMarkdown(const CompareResult& result)
{
    const CompareSummary s = result.summary();
    QString out = QStringLiteral("# ") + Text::tr("Dump comparison") + QStringLiteral("\n\n");
    out += Text::tr("Bench: `%1`  \nTarget: `%2`  \nMode: %3")
               .arg(result.bench, result.target, compareModeId(result.mode))
        + QStringLiteral("\n\n");
    if (const auto& f = result.firstDivergence)
        out += QStringLiteral("**") + Text::tr("First divergence: %1 (%2)").arg(markdownCell(f->name), f->reason)
            + QStringLiteral("**\n\n");
    else
        out += QStringLiteral("**") + Text::tr("No divergence found.") + QStringLiteral("**\n\n");
    out += Text::tr("%1 matched (%2 pass, %3 warning, %4 error); %5 unmatched in the bench, %6 in the target.")
               .arg(s.matched)
               .arg(s.pass)
               .arg(s.warning)
               .arg(s.error)
               .arg(s.unmatchedBench)
               .arg(s.unmatchedTarget)
        + QStringLiteral("\n\n");
    out += QStringLiteral("| name | kind | dtype | shape | cosine | max_abs | max_rel | within_1e-3 | underflow | "
                          "verdict |\n|---|---|---|---|---|---|---|---|---|---|\n");
    for (const CompareRow& row : result.rows) {
        const RowValues v = valuesOf(row, result.mode);
        QString verdict = verdictId(row.verdict);
        if (row.introduced)
            verdict += QStringLiteral(" (introduced)");
        out += QStringLiteral("| %1 | %2 | %3 / %4 | %5 / %6 | %7 | %8 | %9 | %10 | %11 | %12 |\n")
                   .arg(markdownCell(row.name), rowKindId(row.kind), row.benchDtype, row.targetDtype,
                        shapeCell(row.benchShape, row.benchHasShape), shapeCell(row.targetShape, row.targetHasShape),
                        cell(v.cosine), cell(v.maxAbs), cell(v.maxRel))
                   .arg(cell(v.within1), cell(v.underflow), verdict);
    }
    return out;
}

} // namespace runlens::models::accuracy
