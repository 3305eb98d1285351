#include "models/cluster/commgroups.h"

#include <QHash>

#include <algorithm>
#include <map>

namespace runlens::models::cluster {

namespace {

/// One rank's collectives of one group: their durations in ms, in issue order.
struct Member
{
    int rank = -1;
    std::vector<double> durations;
};

struct GroupBuild
{
    CommGroup group;
    std::vector<Member> members;
};

double durationMs(const DigestCollective& c)
{
    return double(std::max<std::int64_t>(0, c.end - c.start)) / 1e6;
}

void finish(GroupBuild& build)
{
    CommGroup& g = build.group;
    std::sort(build.members.begin(), build.members.end(),
              [](const Member& a, const Member& b) { return a.rank < b.rank; });
    std::size_t shortest = std::numeric_limits<std::size_t>::max();
    for (const Member& m : build.members) {
        g.ranks.push_back(m.rank);
        g.collectives = std::max(g.collectives, int(m.durations.size()));
        shortest = std::min(shortest, m.durations.size());
        for (double d : m.durations)
            g.totalTime += d;
    }
    if (build.members.size() < 2)
        return;
    std::vector<double> caused(build.members.size(), 0.0);
    std::map<std::pair<std::size_t, std::size_t>, double> links;
    for (std::size_t i = 0; i < shortest; ++i) {
        std::size_t late = 0;
        std::size_t waiter = 0;
        for (std::size_t k = 1; k < build.members.size(); ++k) {
            if (build.members[k].durations[i] < build.members[late].durations[i])
                late = k;
            if (build.members[k].durations[i] > build.members[waiter].durations[i])
                waiter = k;
        }
        const double shortestDuration = build.members[late].durations[i];
        for (std::size_t k = 0; k < build.members.size(); ++k)
            caused[late] += build.members[k].durations[i] - shortestDuration;
        if (waiter != late)
            links[{ waiter, late }] += build.members[waiter].durations[i] - shortestDuration;
    }
    const auto slowest = std::max_element(caused.begin(), caused.end());
    if (*slowest > 0) {
        g.slowestRank = build.members[std::size_t(slowest - caused.begin())].rank;
        g.slowestRankWait = *slowest;
    }
    for (const auto& [pair, wait] : links) {
        if (wait > g.linkWait) {
            g.linkWait = wait;
            g.linkWaiter = build.members[pair.first].rank;
            g.linkLate = build.members[pair.second].rank;
        }
    }
}

} // namespace

std::vector<CommGroup> inferCommGroups(const std::vector<std::shared_ptr<const RankDigest>>& digests)
{
    std::vector<GroupBuild> builds;
    QHash<QString, int> named; // group + declared ranks -> index into builds
    QHash<QByteArray, int> bySequence; // sequence signature -> index into builds
    for (const auto& digest : digests) {
        if (!digest)
            continue;
        const int rank = digest->rank();
        // The few groups one rank talks in, found by comparing strings rather than hashing each collective.
        struct Local
        {
            const QString* group;
            const QString* ranks;
            int build;
        };
        std::vector<Local> local;
        std::map<int, std::size_t> memberOf; // build -> index into its members for this rank
        QByteArray signature;
        std::vector<double> unnamed;
        for (const DigestCollective& c : digest->collectives) {
            if (c.group.isEmpty() && c.groupRanks.isEmpty()) {
                signature += c.name.toUtf8();
                signature += '/';
                signature += QByteArray::number(c.bytes, 'g', 12);
                signature += ';';
                unnamed.push_back(durationMs(c));
                continue;
            }
            auto it = std::find_if(local.begin(), local.end(),
                                   [&c](const Local& l) { return *l.group == c.group && *l.ranks == c.groupRanks; });
            if (it == local.end()) {
                const QString key = c.group + QChar(0x1f) + c.groupRanks;
                int index = named.value(key, -1);
                if (index < 0) {
                    index = int(builds.size());
                    named.insert(key, index);
                    GroupBuild build;
                    build.group.name = c.group;
                    build.group.declaredRanks = c.groupRanks;
                    builds.push_back(std::move(build));
                }
                local.push_back({ &c.group, &c.groupRanks, index });
                it = local.end() - 1;
            }
            GroupBuild& build = builds[std::size_t(it->build)];
            auto member = memberOf.find(it->build);
            if (member == memberOf.end()) {
                member = memberOf.emplace(it->build, build.members.size()).first;
                build.members.push_back({ rank, {} });
            }
            build.members[member->second].durations.push_back(durationMs(c));
        }
        if (unnamed.empty())
            continue;
        int index = bySequence.value(signature, -1);
        if (index < 0) {
            index = int(builds.size());
            bySequence.insert(signature, index);
            GroupBuild build;
            build.group.inferred = true;
            builds.push_back(std::move(build));
        }
        builds[std::size_t(index)].members.push_back({ rank, std::move(unnamed) });
    }
    std::vector<CommGroup> groups;
    groups.reserve(builds.size());
    for (GroupBuild& build : builds) {
        finish(build);
        groups.push_back(std::move(build.group));
    }
    std::stable_sort(groups.begin(), groups.end(),
                     [](const CommGroup& a, const CommGroup& b) { return a.totalTime > b.totalTime; });
    return groups;
}

QString formatRankRanges(std::vector<int> ranks)
{
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    QStringList parts;
    for (std::size_t i = 0; i < ranks.size();) {
        std::size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
            ++j;
        parts << (j == i ? QString::number(ranks[i]) : QStringLiteral("%1-%2").arg(ranks[i]).arg(ranks[j]));
        i = j + 1;
    }
    return parts.join(QStringLiteral(", "));
}

} // namespace runlens::models::cluster
