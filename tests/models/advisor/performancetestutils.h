#pragma once

#include "importers/trace/chrometracereader.h"
#include "models/advisor/advisor.h"
#include "models/advisor/analysis.h"
#include "tests/models/trace/analysistestdata.h"
#include "tests/pythonoracle.h"

#include <QString>
#include <QStringList>

#include <algorithm>
#include <iterator>
#include <memory>
#include <vector>

namespace runlens::test {

/// An AdvisorInput holding one trace store, as the app hands it to the analysers.
inline models::advisor::AdvisorInput traceInput(std::shared_ptr<const models::trace::TraceStore> store,
                                                const QString& run = QStringLiteral("run"))
{
    models::advisor::AdvisorInput input;
    models::advisor::TraceInput trace;
    trace.run = run;
    trace.path = store->sources().empty() ? QString() : store->sources().front().path;
    trace.store = std::move(store);
    input.traces.push_back(std::move(trace));
    return input;
}

/// Reads trace files with the project's importer (each file a rank).
inline std::shared_ptr<const models::trace::TraceStore> readTraces(const QStringList& paths)
{
    return importers::trace::ChromeTraceReader::read(paths).store;
}

/// What one analyser measured of one metric, in the order it measured them.
inline std::vector<models::advisor::Measurement> measured(const models::advisor::AnalysisContext& context,
                                                          const QString& metric)
{
    std::vector<models::advisor::Measurement> out;
    std::copy_if(context.measurements().begin(), context.measurements().end(), std::back_inserter(out),
                 [&metric](const models::advisor::Measurement& m) { return m.metric == metric; });
    return out;
}

/// Runs a script of tests/data/advisor/performance (check it with RUNLENS_VERIFY_PYTHON).
inline PythonRun runPerformanceOracle(const QString& script, const QStringList& arguments)
{
    return runPythonScript(QStringLiteral("advisor/performance/") + script, arguments);
}

/// The rules of `report`'s findings, after checking that every finding's message has all its
/// placeholders filled in (a fact the analyser forgot would stay as "{name}").
inline QStringList firedRules(const models::advisor::AdvisorReport& report)
{
    QStringList fired;
    for (const models::advisor::Finding& f : report.findings) {
        if (f.message.contains(QLatin1Char('{')) || f.message.contains(QLatin1Char('}')))
            qWarning("unfilled placeholder in %s: %s", qPrintable(f.ruleId), qPrintable(f.message));
        else
            fired << f.ruleId;
    }
    return fired;
}

} // namespace runlens::test
