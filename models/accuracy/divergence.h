#pragma once

#include "models/accuracy/compareresult.h"

#include <optional>

namespace runlens::models::accuracy {

/// Where the error is born. Walks the ops in execution order (rows grouped by op, in row order): an op whose
/// outputs reach `failLevel` while none of its inputs does introduced an error there (a failing parameter
/// with passing inputs counts too: the op's own weights differ); an op whose outputs fail with failing inputs
/// only carries an earlier error. Sets `introduced` / `propagated` on the failing output rows, and returns
/// the first op that introduced an error, or, when no op did (every failing op already had failing inputs,
/// or only inputs fail), the first failing row of any kind. Ops without output rows (checkpoints) are judged by their
/// parameters; the same op of another rank or step (CompareRow::group) is another op. Nullopt when no row reaches
/// `failLevel`.
std::optional<FirstDivergence> findDivergence(QList<CompareRow>& rows, Verdict failLevel = Verdict::Warning);

} // namespace runlens::models::accuracy
