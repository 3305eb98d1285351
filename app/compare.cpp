#include "app/commandline.h"

#include "importers/accuracy/dumpcompare.h"
#include "models/advisor/advisor.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>

// `runlens compare`: two runs' dumps matched op by op, the metrics per pair and the op where they part.

namespace runlens::app::cli {

namespace {

struct Text
{
    Q_DECLARE_TR_FUNCTIONS(runlens::cli)
};

/// The Advisor's rules over the comparison (resources/rules/comparison.json), with the user's rule files.
models::advisor::AdvisorReport comparisonFindings(const models::accuracy::CompareResult& result, QTextStream& err)
{
    QStringList problems;
    const models::advisor::RuleBook rules = models::advisor::RuleBook::effective({}, &problems);
    for (const QString& problem : std::as_const(problems))
        err << problem << Qt::endl;
    models::advisor::AdvisorInput input;
    input.comparison = std::make_shared<const models::accuracy::CompareResult>(result);
    return models::advisor::evaluate(input, rules);
}

QString findingsText(const models::advisor::AdvisorReport& report)
{
    QString out = QLatin1Char('\n') + Text::tr("Findings:") + QLatin1Char('\n');
    if (report.findings.isEmpty())
        out += QStringLiteral("  ") + Text::tr("none") + QLatin1Char('\n');
    for (const models::advisor::Finding& finding : report.findings) {
        out += QStringLiteral("  [%1] %2").arg(models::advisor::toString(finding.severity), finding.title);
        if (finding.occurrences > 1)
            out += QStringLiteral(" (\u00d7%1)").arg(finding.occurrences);
        out += QStringLiteral(": ") + finding.message + QLatin1Char('\n');
    }
    return out;
}

QString findingsMarkdown(const models::advisor::AdvisorReport& report)
{
    QString out = QStringLiteral("\n## ") + Text::tr("Findings") + QStringLiteral("\n\n");
    if (report.findings.isEmpty())
        out += Text::tr("No findings.") + QLatin1Char('\n');
    for (const models::advisor::Finding& finding : report.findings) {
        QString message = finding.message;
        message.replace(QLatin1Char('|'), QStringLiteral("\\|"));
        out += QStringLiteral("- **%1** (%2): %3\n")
                   .arg(finding.title, models::advisor::displayName(finding.severity), message);
    }
    return out;
}

QString textReport(const models::accuracy::CompareResult& result)
{
    using namespace models::accuracy;
    QString out;
    const CompareSummary s = result.summary();
    out += Text::tr("Bench:  %1").arg(result.bench) + QLatin1Char('\n');
    out += Text::tr("Target: %1").arg(result.target) + QLatin1Char('\n');
    out += Text::tr("Mode:   %1").arg(compareModeId(result.mode)) + QLatin1Char('\n');
    if (const auto& f = result.firstDivergence)
        out += Text::tr("First divergence: %1 (%2)").arg(f->name, f->reason) + QLatin1Char('\n');
    else
        out += Text::tr("No divergence found.") + QLatin1Char('\n');
    out += Text::tr("%1 matched: %2 pass, %3 warning, %4 error; unmatched: %5 in the bench, %6 in the target.")
               .arg(s.matched)
               .arg(s.pass)
               .arg(s.warning)
               .arg(s.error)
               .arg(s.unmatchedBench)
               .arg(s.unmatchedTarget)
        + QLatin1Char('\n');
    for (const CompareRow& row : result.rows) {
        if (row.verdict != Verdict::Warning && row.verdict != Verdict::Error)
            continue;
        QString line = QStringLiteral("  %1  %2").arg(verdictId(row.verdict), -7).arg(row.name);
        if (row.tensor.cosine)
            line += QStringLiteral("  cosine %1").arg(*row.tensor.cosine, 0, 'g', 8);
        if (row.tensor.maxAbs)
            line += QStringLiteral("  max_abs %1").arg(*row.tensor.maxAbs, 0, 'g', 6);
        if (row.tensor.underflow > 0)
            line += QStringLiteral("  underflow %1").arg(row.tensor.underflow);
        if (row.introduced)
            line += QLatin1Char(' ') + Text::tr("(introduced)");
        out += line + QLatin1Char('\n');
    }
    return out;
}

} // namespace

int compare(const QStringList& args)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        Text::tr("Compares two runs' dumps tensor by tensor and finds the op where they part.\n"
                 "BENCH is the reference, TARGET the run under test: msprobe dump folders, run folders with dumps,\n"
                 "or two checkpoint files (.pt, .npz, .safetensors).\n"
                 "Exit code: 0 when no row reaches the --fail-on verdict (always 0 without it), 1 when one does,\n"
                 "2 for a usage error, a missing or unreadable input or mapping file."));
    const QCommandLineOption help = parser.addHelpOption();
    parser.addOption({ QStringLiteral("json"), Text::tr("Print JSON (the stable contract) instead of text.") });
    parser.addOption({ QStringLiteral("csv"), Text::tr("Print one CSV line per row.") });
    parser.addOption({ QStringLiteral("md"), Text::tr("Print a Markdown report.") });
    parser.addOption(
        { QStringLiteral("mapping"),
          Text::tr("A mapping file (JSON or YAML) naming target rows, APIs, module paths and classes as the "
                   "bench spells them."),
          QStringLiteral("FILE") });
    parser.addOption({ QStringLiteral("fail-on"),
                       Text::tr("Exit with 1 when a row has this verdict or worse: warning or error."),
                       QStringLiteral("VERDICT") });
    parser.addPositionalArgument(QStringLiteral("BENCH"), Text::tr("The reference dump."));
    parser.addPositionalArgument(QStringLiteral("TARGET"), Text::tr("The dump under test."));
    if (!parser.parse(args)) {
        err << QStringLiteral("runlens compare: ") << parser.errorText() << Qt::endl;
        return 2;
    }
    if (parser.isSet(help))
        parser.showHelp(0);

    std::optional<models::accuracy::Verdict> level;
    if (parser.isSet(QStringLiteral("fail-on"))) {
        const QString value = parser.value(QStringLiteral("fail-on"));
        if (value == QLatin1String("warning"))
            level = models::accuracy::Verdict::Warning;
        else if (value == QLatin1String("error"))
            level = models::accuracy::Verdict::Error;
        else {
            err << Text::tr("runlens compare: --fail-on takes warning or error, not '%1'").arg(value) << Qt::endl;
            return 2;
        }
    }
    const QStringList paths = parser.positionalArguments();
    if (paths.size() != 2) {
        err << Text::tr("runlens compare: BENCH and TARGET are required") << Qt::endl;
        return 2;
    }
    for (const QString& path : paths) {
        if (!QFileInfo::exists(path)) {
            err << Text::tr("runlens compare: %1 does not exist").arg(path) << Qt::endl;
            return 2;
        }
    }

    importers::accuracy::CompareOptions options;
    if (parser.isSet(QStringLiteral("mapping"))) {
        const QString file = parser.value(QStringLiteral("mapping"));
        QFile f(file);
        if (!f.open(QIODevice::ReadOnly)) {
            err << Text::tr("runlens compare: cannot read the mapping %1").arg(file) << Qt::endl;
            return 2;
        }
        QString error;
        const std::optional<models::accuracy::NameMapping> mapping
            = models::accuracy::NameMapping::parse(f.readAll(), &error);
        if (!mapping) {
            err << Text::tr("runlens compare: %1: %2").arg(file, error) << Qt::endl;
            return 2;
        }
        options.mapping = *mapping;
    }

    QString error;
    const std::optional<models::accuracy::CompareResult> result
        = importers::accuracy::compareDumps(paths.at(0), paths.at(1), options, &error);
    if (!result) {
        err << Text::tr("runlens compare: %1").arg(error) << Qt::endl;
        return 2;
    }
    for (const QString& message : result->messages.mid(0, 20))
        err << message << Qt::endl;

    if (parser.isSet(QStringLiteral("csv"))) {
        out << models::accuracy::compareResultToCsv(*result);
    } else {
        const models::advisor::AdvisorReport findings = comparisonFindings(*result, err);
        if (parser.isSet(QStringLiteral("json"))) {
            QJsonObject json = models::accuracy::compareResultToJson(*result);
            QJsonArray array;
            for (const models::advisor::Finding& finding : findings.findings)
                array.append(models::advisor::findingJson(finding));
            json.insert(QStringLiteral("findings"), array);
            out << QString::fromUtf8(QJsonDocument(json).toJson(QJsonDocument::Indented));
        } else if (parser.isSet(QStringLiteral("md"))) {
            out << models::accuracy::compareResultToMarkdown(*result) << findingsMarkdown(findings);
        } else {
            out << textReport(*result) << findingsText(findings);
        }
    }
    out.flush();

    if (level && models::accuracy::reaches(result->worstVerdict(), *level))
        return 1;
    return 0;
}

} // namespace runlens::app::cli
