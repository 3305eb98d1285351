#include "models/advisor/analysis.h"
#include "models/advisor/evidence.h"

#include <QCoreApplication>
#include <QDir>
#include <QSet>

#include <algorithm>

// The rules over a dump comparison (resources/rules/comparison.json): where the error is born, half precision
// underflow and overflow, NaN/Inf on one side only, unmatched ops, shapes and dtypes that differ.

namespace runlens::models::advisor {

namespace {

using accuracy::CompareResult;
using accuracy::CompareRow;
using accuracy::Verdict;

const QString kDivergence = QStringLiteral("comparison.divergence");
const QString kDivergenceWarning = QStringLiteral("comparison.divergence_warning");
const QString kUnderflow = QStringLiteral("comparison.underflow_share");
const QString kOverflow = QStringLiteral("comparison.overflow");
const QString kNonFinite = QStringLiteral("comparison.nonfinite_mismatch");
const QString kUnmatched = QStringLiteral("comparison.unmatched_share");
const QString kShape = QStringLiteral("comparison.shape_mismatch");
const QString kDtype = QStringLiteral("comparison.dtype_mismatch");

/// "float32" for "torch.float32", "Float32" and "float32": the frameworks spell the same dtype differently.
QString dtypeKey(const QString& dtype)
{
    QString key = dtype.toLower();
    for (const QLatin1String prefix :
         { QLatin1String("torch."), QLatin1String("mindspore."), QLatin1String("np."), QLatin1String("numpy.") }) {
        if (key.startsWith(prefix))
            key = key.mid(prefix.size());
    }
    key.remove(QLatin1Char('_'));
    return key;
}

QString shapeText(const std::vector<std::int64_t>& shape)
{
    QStringList dims;
    for (const std::int64_t dim : shape)
        dims << QString::number(dim);
    return QLatin1Char('[') + dims.join(QStringLiteral(", ")) + QLatin1Char(']');
}

/// The metrics of a row that say how far apart the sides are, for a message.
QString metricsText(const CompareRow& row)
{
    QStringList parts;
    const accuracy::TensorMetrics& m = row.tensor;
    if (m.cosine)
        parts << QCoreApplication::translate("runlens::advisor", "cosine %1").arg(*m.cosine, 0, 'g', 8);
    if (m.maxAbs)
        parts << QCoreApplication::translate("runlens::advisor", "max absolute error %1").arg(*m.maxAbs, 0, 'g', 4);
    if (m.maxRel)
        parts << QCoreApplication::translate("runlens::advisor", "max relative error %1").arg(*m.maxRel, 0, 'g', 4);
    if (m.underflow > 0)
        parts << QCoreApplication::translate("runlens::advisor", "%1 values underflow").arg(m.underflow);
    if (m.overflow > 0)
        parts << QCoreApplication::translate("runlens::advisor", "%1 values overflow").arg(m.overflow);
    if (m.nanMismatch + m.infMismatch > 0)
        parts << QCoreApplication::translate("runlens::advisor", "%1 NaN/Inf mismatches")
                     .arg(m.nanMismatch + m.infMismatch);
    if (row.statistics) {
        static const char* const kNames[] = { "Max", "Min", "Mean", "Norm" };
        for (int i = 0; i < 4; ++i) {
            if (row.statistics->rel[i])
                parts << QCoreApplication::translate("runlens::advisor", "%1 relative difference %2")
                             .arg(QLatin1String(kNames[i]))
                             .arg(*row.statistics->rel[i], 0, 'g', 4);
        }
    }
    if (!row.benchMd5.isEmpty() && row.benchMd5 != row.targetMd5)
        parts << QCoreApplication::translate("runlens::advisor", "CRC %1 in the bench, %2 in the target")
                     .arg(row.benchMd5, row.targetMd5);
    return parts.isEmpty() ? QCoreApplication::translate("runlens::advisor", "no metric could be computed")
                           : parts.join(QStringLiteral(", "));
}

/// The English reasons of FirstDivergence, translated.
QString reasonText(const QString& reason)
{
    if (reason == QLatin1String("outputs fail while inputs pass"))
        return QCoreApplication::translate("runlens::advisor", "its outputs fail while its inputs pass");
    if (reason == QLatin1String("a parameter differs"))
        return QCoreApplication::translate("runlens::advisor", "a parameter of it differs");
    if (reason == QLatin1String("inputs already differ"))
        return QCoreApplication::translate(
            "runlens::advisor",
            "its inputs already differ (the error comes from before the dump or from an op it does not record)");
    return reason;
}

class ComparisonAnalyser
{
public:
    ComparisonAnalyser(const CompareResult& result, AnalysisContext& context)
        : m_result(result)
        , m_context(context)
        , m_name(comparisonDisplayName(result.bench, result.target))
    { }

    void run()
    {
        divergence();
        rows();
        unmatched();
        for (const QString& metric :
             { kDivergence, kDivergenceWarning, kUnderflow, kOverflow, kNonFinite, kUnmatched, kShape, kDtype })
            m_context.markEvaluated(metric);
    }

private:
    Measurement measurement(const QString& metric, double value, const CompareRow& row, int index) const
    {
        Measurement m;
        m.metric = metric;
        m.value = value;
        m.scope.comparison = m_name;
        m.scope.tensor = row.name;
        m.scope.op = row.op;
        m.order = index;
        m.evidence << compareEvidence(row.name);
        m.facts.insert(QStringLiteral("name"), row.name);
        m.facts.insert(QStringLiteral("op"), row.op.isEmpty() ? row.name : row.op);
        return m;
    }

    void divergence()
    {
        const std::optional<accuracy::FirstDivergence>& first = m_result.firstDivergence;
        if (!first || first->row < 0 || first->row >= m_result.rows.size())
            return;
        int failing = 0;
        int propagated = 0;
        for (const CompareRow& row : m_result.rows) {
            if (row.verdict == Verdict::Warning || row.verdict == Verdict::Error) {
                ++failing;
                propagated += row.propagated ? 1 : 0;
            }
        }
        const CompareRow& row = m_result.rows.at(first->row);
        // The op's worst row decides between an error and a warning: a perturbed weight fails harder than the
        // output it makes.
        Verdict worst = row.verdict;
        for (const CompareRow& other : m_result.rows) {
            if (other.op == row.op && other.opIndex == row.opIndex && other.verdict != Verdict::Unmatched)
                worst = accuracy::worse(worst, other.verdict);
        }
        Measurement m
            = measurement(worst == Verdict::Error ? kDivergence : kDivergenceWarning, failing, row, first->row);
        m.facts.insert(QStringLiteral("reason"), reasonText(first->reason));
        m.facts.insert(QStringLiteral("metrics"), metricsText(row));
        m.facts.insert(QStringLiteral("propagated"), propagated);
        m_context.add(std::move(m));
    }

    void rows()
    {
        for (int i = 0; i < m_result.rows.size(); ++i) {
            const CompareRow& row = m_result.rows.at(i);
            if (row.verdict == Verdict::Unmatched)
                continue;
            const accuracy::TensorMetrics& t = row.tensor;
            if (t.underflow > 0 && t.elements > 0) {
                Measurement m = measurement(kUnderflow, 100.0 * double(t.underflow) / double(t.elements), row, i);
                m.facts.insert(QStringLiteral("underflow"), qint64(t.underflow));
                m.facts.insert(QStringLiteral("elements"), qint64(t.elements));
                m.facts.insert(QStringLiteral("dtype"), row.targetDtype);
                m_context.add(std::move(m));
            }
            if (t.overflow > 0) {
                Measurement m = measurement(kOverflow, double(t.overflow), row, i);
                m.facts.insert(QStringLiteral("elements"), qint64(t.elements));
                m.facts.insert(QStringLiteral("dtype"), row.targetDtype);
                m_context.add(std::move(m));
            }
            const std::int64_t mismatches = t.nanMismatch + t.infMismatch;
            const bool statisticsNonFinite = row.statistics && row.statistics->targetNonFinite;
            if (mismatches > 0 || statisticsNonFinite) {
                Measurement m = measurement(kNonFinite, mismatches > 0 ? double(mismatches) : 1.0, row, i);
                m.facts.insert(QStringLiteral("detail"),
                               mismatches > 0
                                   ? QCoreApplication::translate(
                                         "runlens::advisor", "%1 NaN and %2 infinite values on one side only among %3")
                                         .arg(t.nanMismatch)
                                         .arg(t.infMismatch)
                                         .arg(t.elements)
                                   : QCoreApplication::translate(
                                       "runlens::advisor",
                                       "the target's Max or Min is NaN or infinite while the bench's are finite"));
                m_context.add(std::move(m));
            }
            if (row.benchHasShape && row.targetHasShape && row.benchShape != row.targetShape) {
                Measurement m = measurement(kShape, 1.0, row, i);
                m.facts.insert(QStringLiteral("bench_shape"), shapeText(row.benchShape));
                m.facts.insert(QStringLiteral("target_shape"), shapeText(row.targetShape));
                m_context.add(std::move(m));
            }
            if (!row.benchDtype.isEmpty() && !row.targetDtype.isEmpty()
                && dtypeKey(row.benchDtype) != dtypeKey(row.targetDtype)) {
                Measurement m = measurement(kDtype, 1.0, row, i);
                m.facts.insert(QStringLiteral("bench_dtype"), row.benchDtype);
                m.facts.insert(QStringLiteral("target_dtype"), row.targetDtype);
                m_context.add(std::move(m));
            }
        }
    }

    void unmatched()
    {
        int matched = 0;
        int benchRows = 0;
        int targetRows = 0;
        QSet<QString> benchOps;
        QSet<QString> targetOps;
        int firstUnmatched = -1;
        for (int i = 0; i < m_result.rows.size(); ++i) {
            const CompareRow& row = m_result.rows.at(i);
            if (row.verdict != Verdict::Unmatched) {
                ++matched;
                continue;
            }
            if (firstUnmatched < 0)
                firstUnmatched = i;
            const QString op = row.op.isEmpty() ? row.name : row.op;
            if (!row.targetName.isEmpty()) {
                ++targetRows;
                targetOps.insert(op);
            } else {
                ++benchRows;
                benchOps.insert(op);
            }
        }
        const int all = 2 * matched + benchRows + targetRows;
        if (firstUnmatched < 0 || all == 0)
            return;
        Measurement m = measurement(kUnmatched, 100.0 * double(benchRows + targetRows) / double(all),
                                    m_result.rows.at(firstUnmatched), firstUnmatched);
        // The finding is about the whole comparison; the example row is its evidence.
        m.scope.tensor.clear();
        m.scope.op.clear();
        m.facts.insert(QStringLiteral("ops"), int(benchOps.size() + targetOps.size()));
        m.facts.insert(QStringLiteral("bench_ops"), int(benchOps.size()));
        m.facts.insert(QStringLiteral("target_ops"), int(targetOps.size()));
        m.facts.insert(QStringLiteral("unmatched_bench"), benchRows);
        m.facts.insert(QStringLiteral("unmatched_target"), targetRows);
        m.facts.insert(QStringLiteral("bench_rows"), matched + benchRows);
        m.facts.insert(QStringLiteral("target_rows"), matched + targetRows);
        m_context.add(std::move(m));
    }

    const CompareResult& m_result;
    AnalysisContext& m_context;
    QString m_name;
};

} // namespace

QString comparisonDisplayName(const QString& bench, const QString& target)
{
    // The parts of the paths after which they agree say what differs: ".../fp32/msprobe/step0/rank" and
    // ".../fp16/msprobe/step0/rank" are "fp32 vs fp16".
    QStringList a = QDir::cleanPath(QDir::fromNativeSeparators(bench)).split(QLatin1Char('/'), Qt::SkipEmptyParts);
    QStringList b = QDir::cleanPath(QDir::fromNativeSeparators(target)).split(QLatin1Char('/'), Qt::SkipEmptyParts);
    const QString lastA = a.isEmpty() ? bench : a.last();
    const QString lastB = b.isEmpty() ? target : b.last();
    while (!a.isEmpty() && !b.isEmpty() && a.last() == b.last()) {
        a.removeLast();
        b.removeLast();
    }
    const QString left = a.isEmpty() ? lastA : a.last();
    const QString right = b.isEmpty() ? lastB : b.last();
    return QCoreApplication::translate("runlens::advisor", "%1 vs %2").arg(left, right);
}

void analyseComparison(const AdvisorInput& input, AnalysisContext& context)
{
    if (!input.comparison) {
        const QString reason = QCoreApplication::translate("runlens::advisor", "no dump comparison was run");
        for (const QString& metric :
             { kDivergence, kDivergenceWarning, kUnderflow, kOverflow, kNonFinite, kUnmatched, kShape, kDtype })
            context.markMissing(metric, reason);
        return;
    }
    ComparisonAnalyser(*input.comparison, context).run();
}

} // namespace runlens::models::advisor
