#pragma once

#include "models/accuracy/accuracymetrics.h"
#include "models/accuracy/dumpmatching.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

namespace runlens::models::accuracy {

/// How the pairs were compared: element by element, by msprobe's statistics, by msprobe's CRC ("md5").
enum class CompareMode { Tensor, Statistics, Md5 };
/// "tensor", "statistics", "md5".
QString compareModeId(CompareMode mode);

/// One row of a comparison: a matched pair, or a row of one side that found no partner.
struct CompareRow
{
    QString name; ///< the target's name (the bench's for a bench-only row)
    QString benchName, targetName; ///< empty on the side that has no row
    QString op; ///< the target's op (the bench's for a bench-only row)
    int opIndex = -1; ///< execution order of `op` on its side
    RowKind kind = RowKind::Input;
    int index = -1;
    MatchRule rule = MatchRule::Exact;
    QString benchDtype, targetDtype;
    std::vector<std::int64_t> benchShape, targetShape;
    bool benchHasShape = false, targetHasShape = false;
    TensorMetrics tensor; ///< tensor mode
    std::optional<StatisticsMetrics> statistics; ///< statistics mode
    QString benchMd5, targetMd5; ///< md5 mode
    Verdict verdict = Verdict::None;
    bool introduced = false; ///< an output of the op where an error is born (see findDivergence)
    bool propagated = false; ///< a failing output of an op whose inputs already fail
    QString note; ///< why a value is missing, what differs besides the values
    QString benchSource, targetSource; ///< files the values came from, for messages and the Tensors panel
    /// The dump pair the row belongs to when the sides span several (`step0/rank1`); the names then start
    /// with it (`step0/rank1/Functional.linear.0.forward.output.0`). Empty for a comparison of two dumps.
    QString group;
};

/// The step and rank numbers a group names (`step0/rank1` -> 0, 1); -1 for what it does not name (a
/// non-distributed `rank` folder, no group).
int groupStep(const QString& group);
int groupRank(const QString& group);

/// The op where the numbers part: its first failing output row.
struct FirstDivergence
{
    int row = -1; ///< index into CompareResult::rows
    QString name;
    QString op;
    RowKind kind = RowKind::Output;
    int index = -1;
    /// Stable English reason: "outputs fail while inputs pass", "a parameter differs", or "inputs already
    /// differ" when no op with passing inputs has failing outputs (the error comes from before the dump or from
    /// an op it does not record).
    QString reason;
};

struct CompareSummary
{
    int matched = 0;
    int unmatchedBench = 0;
    int unmatchedTarget = 0;
    int pass = 0;
    int warning = 0;
    int error = 0;
};

/// Two dumps compared: matched rows in the target's execution order, then unmatched target rows, then
/// unmatched bench rows.
struct CompareResult
{
    QString bench, target;
    CompareMode mode = CompareMode::Tensor;
    QList<CompareRow> rows;
    std::optional<FirstDivergence> firstDivergence;
    QStringList messages; ///< problems met on the way (unreadable files), for the user

    CompareSummary summary() const;
    /// The worst verdict of any row (Pass when every row passes or none was compared).
    Verdict worstVerdict() const;
};

/// The stable JSON of `runlens compare --json` (see README): non-finite values and absent metrics are null;
/// unmatched rows carry verdict "unmatched" and null on the side they lack.
QJsonObject compareResultToJson(const CompareResult& result);
/// One line per row with the JSON's columns; values not finite are empty.
QString compareResultToCsv(const CompareResult& result);
/// A Markdown report: the headline, the counts, a table of the rows.
QString compareResultToMarkdown(const CompareResult& result);

} // namespace runlens::models::accuracy
