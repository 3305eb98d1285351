// NameMapping: the mapping files a user gives (rows, apis, modules, classes as JSON or YAML) and msprobe's
// api_mapping lists of argument slots.

#include "models/accuracy/dumpmatching.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <array>

namespace runlens::models::accuracy {

namespace {

QHash<QString, QString> readStringMap(const QJsonObject& o)
{
    QHash<QString, QString> map;
    for (auto it = o.begin(); it != o.end(); ++it)
        if (it->isString())
            map.insert(it.key(), it->toString());
    return map;
}

NameMapping fromSections(const QHash<QString, QHash<QString, QString>>& sections)
{
    NameMapping m;
    m.rows = sections.value(QStringLiteral("rows"));
    m.apis = sections.value(QStringLiteral("apis"));
    m.classes = sections.value(QStringLiteral("classes"));
    const QHash<QString, QString> modules = sections.value(QStringLiteral("modules"));
    // Longer pieces first, so "a.b" is replaced before "a".
    QStringList keys = modules.keys();
    std::sort(keys.begin(), keys.end(),
              [](const QString& x, const QString& y) { return x.size() != y.size() ? x.size() > y.size() : x < y; });
    for (const QString& k : keys)
        m.modules.append({ k, modules.value(k) });
    return m;
}

QString unquote(QString s)
{
    s = s.trimmed();
    if (s.size() >= 2 && (s.front() == QLatin1Char('"') || s.front() == QLatin1Char('\'')) && s.back() == s.front())
        s = s.mid(1, s.size() - 2);
    return s;
}

/// One api_mapping entry read from its keys: values are names or lists of slots.
using ApiEntry = QHash<QString, QStringList>;

const QStringList& apiEntryKeys()
{
    static const QStringList keys { QStringLiteral("ms_api"),
                                    QStringLiteral("pt_api"),
                                    QStringLiteral("ms_args"),
                                    QStringLiteral("pt_args"),
                                    QStringLiteral("ms_outputs"),
                                    QStringLiteral("pt_outputs"),
                                    QStringLiteral("ms_parameters"),
                                    QStringLiteral("pt_parameters"),
                                    QStringLiteral("ms_parameters_grad"),
                                    QStringLiteral("pt_parameters_grad") };
    return keys;
}

bool isSlotToken(const QString& s)
{
    if (s.isEmpty() || s.size() > 256)
        return false;
    for (const QChar c : s)
        if (!(c.isLetterOrNumber() || c == QLatin1Char('_')))
            return false;
    return true;
}

/// Adds the entries to `m`; false with `error` set when one is incomplete or its paired lists differ in length.
bool addApiEntries(const QList<ApiEntry>& entries, NameMapping& m, QString* error)
{
    static const std::array<std::pair<const char*, const char*>, 4> kPairs { {
        { "ms_args", "pt_args" },
        { "ms_outputs", "pt_outputs" },
        { "ms_parameters", "pt_parameters" },
        { "ms_parameters_grad", "pt_parameters_grad" },
    } };
    for (qsizetype i = 0; i < entries.size(); ++i) {
        const ApiEntry& e = entries[i];
        const QStringList msApi = e.value(QStringLiteral("ms_api"));
        const QStringList ptApi = e.value(QStringLiteral("pt_api"));
        if (msApi.size() != 1 || ptApi.size() != 1 || msApi.front().isEmpty() || ptApi.front().isEmpty()) {
            if (error)
                *error = QCoreApplication::translate(
                             "runlens::accuracy", "Entry %1 of the api mapping needs one ms_api and one pt_api name.")
                             .arg(i + 1);
            return false;
        }
        ApiArguments args;
        std::optional<QHash<QString, QString>>* roles[]
            = { &args.inputs, &args.outputs, &args.parameters, &args.parameterGrads };
        for (std::size_t k = 0; k < kPairs.size(); ++k) {
            const QString msKey = QLatin1String(kPairs[k].first);
            const QString ptKey = QLatin1String(kPairs[k].second);
            if (!e.contains(msKey) && !e.contains(ptKey))
                continue;
            const QStringList ms = e.value(msKey);
            const QStringList pt = e.value(ptKey);
            if (ms.size() != pt.size()) {
                if (error)
                    *error = QCoreApplication::translate(
                                 "runlens::accuracy", "Entry %1 of the api mapping (%2): %3 and %4 differ in length.")
                                 .arg(i + 1)
                                 .arg(msApi.front(), msKey, ptKey);
                return false;
            }
            QHash<QString, QString> slotMap;
            for (qsizetype j = 0; j < ms.size(); ++j)
                slotMap.insert(ms[j], pt[j]);
            *roles[k] = std::move(slotMap);
        }
        m.apis.insert(msApi.front(), ptApi.front());
        m.apiArguments.insert(msApi.front(), args);
    }
    return true;
}

/// A flow list "[0, 2]" or a single value; nullopt when a slot is not a plain name or number.
std::optional<QStringList> parseYamlValue(const QString& value)
{
    QString v = value.trimmed();
    QStringList out;
    if (v.startsWith(QLatin1Char('['))) {
        if (!v.endsWith(QLatin1Char(']')))
            return std::nullopt;
        for (const QString& part : v.mid(1, v.size() - 2).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            const QString item = unquote(part);
            if (!isSlotToken(item))
                return std::nullopt;
            out << item;
        }
        return out;
    }
    out << unquote(v);
    return out;
}

/// msprobe's api_mapping YAML: a list of entries (`- ms_api: ...` with the other keys indented below), or one
/// entry at the top level; lists as `[0, 1]` or as `- 0` lines below their key.
std::optional<NameMapping> parseApiMappingYaml(const QByteArray& text, QString* error)
{
    QList<ApiEntry> entries;
    QString listKey; // the key whose `- item` lines follow
    int lineNumber = 0;
    auto fail = [&](const QString& message) -> std::optional<NameMapping> {
        if (error)
            *error = message;
        return std::nullopt;
    };
    for (const QByteArray& raw : text.split('\n')) {
        ++lineNumber;
        QString line = QString::fromUtf8(raw);
        const int hash = int(line.indexOf(QLatin1Char('#')));
        if (hash >= 0)
            line.truncate(hash);
        QString body = line.trimmed();
        if (body.isEmpty() || body == QLatin1String("---"))
            continue;
        bool newEntry = false;
        if (body == QLatin1String("-") || body.startsWith(QLatin1String("- "))) {
            const QString item = body.mid(1).trimmed();
            if (!listKey.isEmpty() && !item.contains(QLatin1Char(':'))) {
                if (!isSlotToken(unquote(item)))
                    return fail(QCoreApplication::translate("runlens::accuracy",
                                                            "Line %1 of the api mapping: '%2' is not an argument slot.")
                                    .arg(lineNumber)
                                    .arg(item.left(80)));
                entries.back()[listKey] << unquote(item);
                continue;
            }
            newEntry = true;
            body = item;
        }
        if (newEntry || entries.isEmpty())
            entries.append(ApiEntry {});
        listKey.clear();
        if (body.isEmpty())
            continue;
        const int colon = int(body.indexOf(QLatin1Char(':')));
        if (colon <= 0)
            return fail(
                QCoreApplication::translate("runlens::accuracy", "Line %1 of the api mapping is not 'key: value'.")
                    .arg(lineNumber));
        const QString key = unquote(body.left(colon));
        if (!apiEntryKeys().contains(key))
            return fail(QCoreApplication::translate(
                            "runlens::accuracy",
                            "Line %1 of the api mapping: unknown key '%2' (ms_api, pt_api, ms_args, pt_args, "
                            "ms_outputs, pt_outputs, ms_parameters, pt_parameters, ms_parameters_grad, "
                            "pt_parameters_grad).")
                            .arg(lineNumber)
                            .arg(key.left(80)));
        if (entries.back().contains(key))
            return fail(QCoreApplication::translate("runlens::accuracy",
                                                    "Line %1 of the api mapping: '%2' appears twice in one entry.")
                            .arg(lineNumber)
                            .arg(key));
        const QString value = body.mid(colon + 1).trimmed();
        if (value.isEmpty()) {
            entries.back().insert(key, {});
            listKey = key;
            continue;
        }
        const std::optional<QStringList> parsed = parseYamlValue(value);
        if (!parsed)
            return fail(QCoreApplication::translate("runlens::accuracy",
                                                    "Line %1 of the api mapping: '%2' is not a list of argument slots.")
                            .arg(lineNumber)
                            .arg(value.left(80)));
        entries.back().insert(key, *parsed);
    }
    NameMapping m;
    if (!addApiEntries(entries, m, error))
        return std::nullopt;
    return m;
}

/// The same entries as a JSON array of objects.
std::optional<NameMapping> parseApiMappingJson(const QJsonArray& array, QString* error)
{
    QList<ApiEntry> entries;
    for (qsizetype i = 0; i < array.size(); ++i) {
        if (!array[i].isObject()) {
            if (error)
                *error
                    = QCoreApplication::translate("runlens::accuracy", "Entry %1 of the api mapping is not an object.")
                          .arg(i + 1);
            return std::nullopt;
        }
        const QJsonObject o = array[i].toObject();
        ApiEntry e;
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (!apiEntryKeys().contains(it.key())) {
                if (error)
                    *error = QCoreApplication::translate("runlens::accuracy",
                                                         "Entry %1 of the api mapping: unknown key '%2'.")
                                 .arg(i + 1)
                                 .arg(it.key().left(80));
                return std::nullopt;
            }
            QStringList values;
            if (it->isString()) {
                values << it->toString();
            } else if (it->isArray()) {
                for (const QJsonValue& v : it->toArray()) {
                    const QString slot = v.isDouble() ? QString::number(v.toInteger()) : v.toString();
                    if (!isSlotToken(slot)) {
                        if (error)
                            *error = QCoreApplication::translate(
                                         "runlens::accuracy",
                                         "Entry %1 of the api mapping: '%2' holds something other than "
                                         "argument slots.")
                                         .arg(i + 1)
                                         .arg(it.key());
                        return std::nullopt;
                    }
                    values << slot;
                }
            } else {
                if (error)
                    *error = QCoreApplication::translate(
                                 "runlens::accuracy", "Entry %1 of the api mapping: '%2' is neither a name nor a list.")
                                 .arg(i + 1)
                                 .arg(it.key());
                return std::nullopt;
            }
            e.insert(it.key(), values);
        }
        entries << e;
    }
    NameMapping m;
    if (!addApiEntries(entries, m, error))
        return std::nullopt;
    return m;
}

/// Whether YAML text is msprobe's api_mapping form: its first line with content is a list item or an
/// `ms_api`/`pt_api` key.
bool looksLikeApiMapping(const QByteArray& text)
{
    for (const QByteArray& raw : text.split('\n')) {
        const QByteArray line = raw.trimmed();
        if (line.isEmpty() || line.startsWith('#') || line == "---")
            continue;
        return line == "-" || line.startsWith("- ") || line.startsWith("ms_api:") || line.startsWith("pt_api:");
    }
    return false;
}

} // namespace

bool NameMapping::isEmpty() const
{
    return rows.isEmpty() && apis.isEmpty() && modules.isEmpty() && classes.isEmpty() && apiArguments.isEmpty();
}

void NameMapping::merge(const NameMapping& other)
{
    rows.insert(other.rows);
    apis.insert(other.apis);
    classes.insert(other.classes);
    apiArguments.insert(other.apiArguments);
    for (const auto& piece : other.modules) {
        modules.erase(
            std::remove_if(modules.begin(), modules.end(), [&](const auto& p) { return p.first == piece.first; }),
            modules.end());
        modules.append(piece);
    }
}

const NameMapping& NameMapping::mindSporeToPyTorch()
{
    static const NameMapping mapping = [] {
        QFile file(QStringLiteral(":/accuracy/apimapping.json"));
        NameMapping m;
        if (file.open(QIODevice::ReadOnly)) {
            QString error;
            if (const std::optional<NameMapping> parsed = parse(file.readAll(), &error))
                m = *parsed;
        }
        return m;
    }();
    return mapping;
}

std::optional<NameMapping> NameMapping::parse(const QByteArray& text, QString* error)
{
    static const QStringList kSections { QStringLiteral("rows"), QStringLiteral("apis"), QStringLiteral("modules"),
                                         QStringLiteral("classes") };
    QHash<QString, QHash<QString, QString>> sections;
    const QByteArray trimmed = text.trimmed();
    if (trimmed.startsWith('[')) {
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(text, &parseError);
        if (!doc.isArray()) {
            if (error)
                *error = QCoreApplication::translate("runlens::accuracy", "The mapping is not valid JSON: %1")
                             .arg(parseError.errorString());
            return std::nullopt;
        }
        return parseApiMappingJson(doc.array(), error);
    }
    if (!trimmed.startsWith('{') && looksLikeApiMapping(text))
        return parseApiMappingYaml(text, error);
    if (trimmed.startsWith('{')) {
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(text, &parseError);
        if (!doc.isObject()) {
            if (error)
                *error = QCoreApplication::translate("runlens::accuracy", "The mapping is not valid JSON: %1")
                             .arg(parseError.errorString());
            return std::nullopt;
        }
        const QJsonObject root = doc.object();
        for (auto it = root.begin(); it != root.end(); ++it) {
            if (kSections.contains(it.key()) && it->isObject())
                sections[it.key()] = readStringMap(it->toObject());
            else if (it->isString())
                sections[QStringLiteral("rows")].insert(it.key(), it->toString());
        }
        return fromSections(sections);
    }
    // YAML, the small subset mapping files need: `section:` lines with indented `key: value` lines below,
    // or top-level `key: value` lines (row names, as msprobe's data_mapping files write them).
    QString section;
    int lineNumber = 0;
    for (const QByteArray& raw : text.split('\n')) {
        ++lineNumber;
        QString line = QString::fromUtf8(raw);
        const int hash = int(line.indexOf(QLatin1String(" #")));
        if (hash >= 0)
            line.truncate(hash);
        if (line.trimmed().isEmpty() || line.trimmed().startsWith(QLatin1Char('#'))
            || line.trimmed() == QLatin1String("---"))
            continue;
        const bool indented = line.front().isSpace();
        const int colon = int(line.indexOf(QLatin1String(": ")));
        const QString trimmedLine = line.trimmed();
        if (!indented && trimmedLine.endsWith(QLatin1Char(':')) && colon < 0) {
            section = unquote(trimmedLine.chopped(1));
            if (!kSections.contains(section)) {
                if (error)
                    *error = QCoreApplication::translate(
                                 "runlens::accuracy",
                                 "Line %1 of the mapping: unknown section '%2' (rows, apis, modules or classes).")
                                 .arg(lineNumber)
                                 .arg(section);
                return std::nullopt;
            }
            continue;
        }
        if (colon < 0) {
            if (error)
                *error = QCoreApplication::translate("runlens::accuracy", "Line %1 of the mapping is not 'name: name'.")
                             .arg(lineNumber);
            return std::nullopt;
        }
        const QString key = unquote(line.left(colon));
        const QString value = unquote(line.mid(colon + 2));
        sections[indented && !section.isEmpty() ? section : QStringLiteral("rows")].insert(key, value);
    }
    return fromSections(sections);
}

} // namespace runlens::models::accuracy
