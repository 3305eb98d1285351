#include "models/accuracy/divergence.h"

#include <QHash>

namespace runlens::models::accuracy {

std::optional<FirstDivergence> findDivergence(QList<CompareRow>& rows, Verdict failLevel)
{
    // Ops in the order their first row appears (rows are in execution order).
    QList<QList<int>> ops;
    QHash<QString, int> opOf;
    for (int i = 0; i < rows.size(); ++i) {
        if (rows[i].verdict == Verdict::Unmatched)
            continue;
        // The same op of another rank or step is another op.
        const QString key = rows[i].group + QLatin1Char('/') + (rows[i].op.isEmpty() ? rows[i].name : rows[i].op);
        auto it = opOf.constFind(key);
        if (it == opOf.constEnd()) {
            it = opOf.insert(key, int(ops.size()));
            ops.append(QList<int>());
        }
        ops[*it] << i;
    }

    std::optional<FirstDivergence> first;
    int firstFailing = -1;
    for (const QList<int>& op : ops) {
        bool inputsFail = false, parametersFail = false, hasOutputs = false;
        for (int r : op) {
            const CompareRow& row = rows[r];
            const bool fails = reaches(row.verdict, failLevel);
            if (row.kind == RowKind::Input)
                inputsFail |= fails;
            else if (row.kind == RowKind::Parameter)
                parametersFail |= fails;
            else
                hasOutputs = true;
        }
        for (int r : op)
            if (firstFailing < 0 && reaches(rows[r].verdict, failLevel))
                firstFailing = r;
        QList<int> failing;
        for (int r : op) {
            const CompareRow& row = rows[r];
            const bool output = hasOutputs ? (row.kind == RowKind::Output || row.kind == RowKind::Gradient)
                                           : row.kind == RowKind::Parameter;
            if (output && reaches(row.verdict, failLevel))
                failing << r;
        }
        if (failing.isEmpty())
            continue;
        for (int r : failing) {
            rows[r].introduced = !inputsFail;
            rows[r].propagated = inputsFail;
        }
        if (!inputsFail && !first) {
            const CompareRow& row = rows[failing.front()];
            first
                = FirstDivergence { failing.front(),
                                    row.name,
                                    row.op,
                                    row.kind,
                                    row.index,
                                    parametersFail || !hasOutputs ? QStringLiteral("a parameter differs")
                                                                  : QStringLiteral("outputs fail while inputs pass") };
        }
    }
    if (!first && firstFailing >= 0) {
        const CompareRow& row = rows[firstFailing];
        first = FirstDivergence { firstFailing, row.name,  row.op,
                                  row.kind,     row.index, QStringLiteral("inputs already differ") };
    }
    return first;
}

} // namespace runlens::models::accuracy
