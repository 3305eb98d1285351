#pragma once

// Reading what a peer process printed: the peers end with one JSON object on a line of its own, holding the
// seconds of each timed run and what they read, so both sides' medians come from the same kind of list.

#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

#include <vector>

namespace runlens::bench {

/// The last line of `output` that is a JSON object (earlier lines may be progress), or an empty object.
inline QJsonObject lastJsonLine(const QByteArray& output)
{
    QJsonObject result;
    for (const QByteArray& line : output.split('\n')) {
        const QJsonDocument document = QJsonDocument::fromJson(line);
        if (document.isObject())
            result = document.object();
    }
    return result;
}

/// The numbers of the array `key` of `object` (the peer's timings); empty when there is none.
inline std::vector<double> numbers(const QJsonObject& object, const QString& key)
{
    std::vector<double> values;
    for (const QJsonValue& value : object.value(key).toArray())
        values.push_back(value.toDouble());
    return values;
}

} // namespace runlens::bench
