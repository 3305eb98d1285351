#include "app/commandline.h"

#include "importers/core/advisorloader.h"
#include "models/advisor/advisor.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonDocument>
#include <QTextStream>

// `runlens advise`: the Advisor's rules over a run folder, for a terminal or a CI job.

namespace runlens::app::cli {

namespace {

// A folder with hundreds of damaged files would bury the report; the rest is summarised.
constexpr int kMaxImportProblems = 20;

std::optional<models::advisor::Severity> failLevel(const QString& text)
{
    if (text == QLatin1String("warning"))
        return models::advisor::Severity::Warning;
    if (text == QLatin1String("error"))
        return models::advisor::Severity::Error;
    return std::nullopt;
}

bool atLeast(models::advisor::Severity severity, models::advisor::Severity level)
{
    auto rank = [](models::advisor::Severity s) {
        return s == models::advisor::Severity::Error ? 2 : s == models::advisor::Severity::Warning ? 1 : 0;
    };
    return rank(severity) >= rank(level);
}

} // namespace

int advise(const QStringList& args)
{
    QTextStream out(stdout);
    QTextStream err(stderr);
    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate(
        "runlens::cli",
        "Runs the Advisor's expert rules over a run folder and reports what they find, with evidence.\n"
        "Exit code: 0 when no finding reaches the --fail-on severity (always 0 without it), 1 when one does,\n"
        "2 for a usage error, a missing PATH or an unreadable rule file."));
    const QCommandLineOption help = parser.addHelpOption();
    parser.addOption(
        { QStringLiteral("json"),
          QCoreApplication::translate("runlens::cli", "Print JSON (the stable contract) instead of text.") });
    parser.addOption({ QStringLiteral("format"),
                       QCoreApplication::translate("runlens::cli", "Output format: text, json, markdown or html."),
                       QStringLiteral("FORMAT"), QStringLiteral("text") });
    parser.addOption({ QStringLiteral("rules"),
                       QCoreApplication::translate("runlens::cli",
                                                   "A rule file layered over the built-in rules and those of the "
                                                   "settings folder (thresholds, enabled, severity, new rules). "
                                                   "May be given several times."),
                       QStringLiteral("FILE") });
    parser.addOption({ QStringLiteral("fail-on"),
                       QCoreApplication::translate("runlens::cli",
                                                   "Exit with 1 when a finding of this severity or worse exists: "
                                                   "warning or error."),
                       QStringLiteral("SEVERITY") });
    parser.addPositionalArgument(QStringLiteral("PATH"),
                                 QCoreApplication::translate("runlens::cli", "Run folder or file."));
    // Not process(): it exits with 1 on a bad option, which a CI gate would read as "findings".
    if (!parser.parse(args)) {
        err << QStringLiteral("runlens advise: ") << parser.errorText() << Qt::endl;
        return 2;
    }
    if (parser.isSet(help))
        parser.showHelp(0);

    std::optional<models::advisor::Severity> level;
    if (parser.isSet(QStringLiteral("fail-on"))) {
        level = failLevel(parser.value(QStringLiteral("fail-on")));
        if (!level) {
            err << QCoreApplication::translate("runlens::cli",
                                               "runlens advise: --fail-on takes warning or error, not '%1'")
                       .arg(parser.value(QStringLiteral("fail-on")))
                << Qt::endl;
            return 2;
        }
    }
    QString format = parser.isSet(QStringLiteral("json")) ? QStringLiteral("json")
                                                          : parser.value(QStringLiteral("format")).toLower();
    static const QStringList kFormats { QStringLiteral("text"), QStringLiteral("json"), QStringLiteral("markdown"),
                                        QStringLiteral("html") };
    if (!kFormats.contains(format)) {
        err << QCoreApplication::translate("runlens::cli",
                                           "runlens advise: --format takes text, json, markdown or html, not '%1'")
                   .arg(format)
            << Qt::endl;
        return 2;
    }
    const QString path = parser.positionalArguments().value(0);
    if (path.isEmpty()) {
        err << QCoreApplication::translate("runlens::cli", "runlens advise: a PATH is required") << Qt::endl;
        return 2;
    }
    if (!QFileInfo::exists(path)) {
        err << QCoreApplication::translate("runlens::cli", "runlens advise: %1 does not exist").arg(path) << Qt::endl;
        return 2;
    }

    QStringList problems;
    models::advisor::RuleBook rules = models::advisor::RuleBook::effective({}, &problems);
    bool unreadable = false;
    for (const QString& file : parser.values(QStringLiteral("rules")))
        unreadable = !rules.load(file, &problems) || unreadable;
    for (const QString& problem : std::as_const(problems))
        err << problem << Qt::endl;
    if (unreadable)
        return 2;

    QStringList importProblems;
    const models::advisor::AdvisorInput input = importers::loadAdvisorInput(path, &importProblems);
    for (const QString& problem : importProblems.mid(0, kMaxImportProblems))
        err << problem << Qt::endl;
    if (importProblems.size() > kMaxImportProblems)
        err << QCoreApplication::translate("runlens::cli", "runlens advise: %n more problem(s) while reading", nullptr,
                                           int(importProblems.size() - kMaxImportProblems))
            << Qt::endl;

    const models::advisor::AdvisorReport report = models::advisor::evaluate(input, rules);
    if (format == QLatin1String("json"))
        out << QString::fromUtf8(QJsonDocument(models::advisor::reportJson(report)).toJson(QJsonDocument::Indented));
    else if (format == QLatin1String("markdown"))
        out << models::advisor::reportMarkdown(report);
    else if (format == QLatin1String("html"))
        out << models::advisor::reportHtml(report);
    else
        out << models::advisor::reportText(report);
    out.flush();

    if (level) {
        for (const models::advisor::Finding& finding : report.findings) {
            if (atLeast(finding.severity, *level))
                return 1;
        }
    }
    return 0;
}

} // namespace runlens::app::cli
