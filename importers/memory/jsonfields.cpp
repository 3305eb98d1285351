#include "importers/memory/jsonfields.h"

#include "importers/core/jsonscan.h"

#include <QCoreApplication>
#include <QStringList>

#include <cmath>

namespace runlens::importers::memory {

namespace {

struct Text
{
    Q_DECLARE_TR_FUNCTIONS(runlens::memory)
};

constexpr int kDetailedWarnings = 5; // per file; the rest are counted in one message

} // namespace

JsonFields::JsonFields(const QString& file, models::Diagnostics& diagnostics)
    : m_file(file)
    , m_diagnostics(diagnostics)
{ }

std::optional<nlohmann::json> JsonFields::parse(const QByteArray& bytes, ImportBudget& budget)
{
    const std::int64_t overrun = scanJsonLimits(std::string_view(bytes.constData(), std::size_t(bytes.size())), budget);
    if (overrun >= 0) {
        m_diagnostics.append(budget.diagnostic(m_file, overrun));
        return std::nullopt;
    }
    // Checked before parsing: the parser then meets only text it can hold, and throws only on bad syntax.
    try {
        return nlohmann::json::parse(bytes.constBegin(), bytes.constEnd());
    } catch (const nlohmann::json::exception& error) {
        const auto* parseError = dynamic_cast<const nlohmann::json::parse_error*>(&error);
        models::Diagnostic diagnostic;
        diagnostic.severity = models::Severity::Error;
        diagnostic.file = m_file;
        diagnostic.offset = parseError && parseError->byte > 0 ? qint64(parseError->byte) - 1 : 0;
        diagnostic.message = Text::tr("not valid JSON: %1").arg(QString::fromUtf8(error.what()));
        m_diagnostics.append(diagnostic);
    }
    return std::nullopt;
}

const nlohmann::json* JsonFields::find(const nlohmann::json& object, std::string_view key)
{
    if (!object.is_object())
        return nullptr;
    const auto found = object.find(key);
    if (found == object.end() || found->is_null())
        return nullptr;
    return &*found;
}

std::optional<double> JsonFields::number(const nlohmann::json& object, std::string_view key, const QString& where,
                                         qint64 index)
{
    const nlohmann::json* value = find(object, key);
    if (!value)
        return std::nullopt;
    if (!value->is_number()) {
        wrongType(key, where, index, Text::tr("a number"));
        return std::nullopt;
    }
    return value->get<double>();
}

std::optional<std::int64_t> JsonFields::integer(const nlohmann::json& object, std::string_view key,
                                                const QString& where, qint64 index)
{
    const nlohmann::json* value = find(object, key);
    if (!value)
        return std::nullopt;
    if (value->is_number_integer() && !value->is_number_unsigned())
        return value->get<std::int64_t>();
    if (value->is_number_unsigned() && value->get<std::uint64_t>() <= std::uint64_t(INT64_MAX))
        return std::int64_t(value->get<std::uint64_t>());
    // 2^63 is the first double out of range; casting one beyond it is undefined.
    if (value->is_number_float() && std::isfinite(value->get<double>()) && std::abs(value->get<double>()) < 0x1p63)
        return std::int64_t(value->get<double>());
    wrongType(key, where, index, Text::tr("an integer"));
    return std::nullopt;
}

const nlohmann::json* JsonFields::array(const nlohmann::json& object, std::string_view key, const QString& where,
                                        qint64 index)
{
    const nlohmann::json* value = find(object, key);
    if (value && !value->is_array()) {
        wrongType(key, where, index, Text::tr("a list"));
        return nullptr;
    }
    return value;
}

QString JsonFields::text(const nlohmann::json& object, std::string_view key)
{
    const nlohmann::json* value = find(object, key);
    return value ? text(*value) : QString();
}

QString JsonFields::text(const nlohmann::json& value)
{
    if (value.is_string())
        return QString::fromStdString(value.get_ref<const std::string&>());
    if (value.is_null())
        return {};
    if (value.is_array()) {
        // Recursion is bounded: parse() refused documents nested deeper than the budget allows.
        QStringList parts;
        for (const nlohmann::json& item : value)
            parts << text(item);
        return parts.join(QLatin1Char(','));
    }
    return QString::fromStdString(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

void JsonFields::wrongType(std::string_view key, const QString& where, qint64 index, const QString& expected)
{
    if (++m_wrongTypes > kDetailedWarnings)
        return;
    const QString place = index >= 0 ? QStringLiteral("%1 %2").arg(where).arg(index) : where;
    models::Diagnostic diagnostic;
    diagnostic.severity = models::Severity::Warning;
    diagnostic.file = m_file;
    diagnostic.message = Text::tr("%1: '%2' is not %3; the value is ignored")
                             .arg(place, QString::fromUtf8(key.data(), qsizetype(key.size())), expected);
    m_diagnostics.append(diagnostic);
}

void JsonFields::finish()
{
    if (m_wrongTypes > kDetailedWarnings) {
        models::Diagnostic diagnostic;
        diagnostic.severity = models::Severity::Warning;
        diagnostic.file = m_file;
        diagnostic.message
            = Text::tr("%1 more values of the wrong type were ignored").arg(m_wrongTypes - kDetailedWarnings);
        m_diagnostics.append(diagnostic);
    }
    m_wrongTypes = 0;
}

} // namespace runlens::importers::memory
