#include "tests/trust/isolatedbatch.h"

#include <QByteArray>
#include <QProcess>

#include <cxxabi.h>
#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <exception>

#if defined(__SANITIZE_ADDRESS__)
#define RUNLENS_TRUST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RUNLENS_TRUST_ASAN 1
#endif
#endif

namespace runlens::test {

namespace {

int g_reportFd = -1;

void writeAll(int fd, const char* data, size_t size)
{
    while (size > 0) {
        const ssize_t n = ::write(fd, data, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        data += n;
        size -= size_t(n);
    }
}

void writeLine(const QByteArray& line)
{
    writeAll(g_reportFd, line.constData(), size_t(line.size()));
    writeAll(g_reportFd, "\n", 1);
}

// Runs in the child on the alternate stack, so a stack overflow is reported too. Only write(2), backtrace()
// (warmed up before the first case, so it does not load libgcc here) and _exit().
void onFatalSignal(int signal)
{
    char text[16] = "S ";
    int length = 2;
    char digits[8];
    int n = 0;
    for (int value = signal; value > 0 && n < 8; value /= 10)
        digits[n++] = char('0' + value % 10);
    while (n > 0)
        text[length++] = digits[--n];
    text[length++] = '\n';
    writeAll(g_reportFd, text, size_t(length));
    void* frames[48];
    const int count = backtrace(frames, 48);
    backtrace_symbols_fd(frames, count, g_reportFd);
    writeAll(g_reportFd, "E\n", 2);
    _exit(128 + signal);
}

[[noreturn]] void runChild(int start, int count, const std::function<QString(int)>& runCase, const ChildLimits& limits)
{
    // Readers may log plenty about damaged input; the parent only needs the report pipe.
    const int devNull = ::open("/dev/null", O_WRONLY);
    if (devNull >= 0) {
        ::dup2(devNull, STDOUT_FILENO);
        ::dup2(devNull, STDERR_FILENO);
    }
    static char alternateStack[1 << 16];
    stack_t stack {};
    stack.ss_sp = alternateStack;
    stack.ss_size = sizeof(alternateStack);
    sigaltstack(&stack, nullptr);
    void* warm[4];
    backtrace(warm, 4);
    struct sigaction action
    {
    };
    action.sa_handler = onFatalSignal;
    action.sa_flags = SA_ONSTACK | SA_RESETHAND;
    sigemptyset(&action.sa_mask);
    for (int signal : { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGALRM, SIGTRAP, SIGSYS })
        sigaction(signal, &action, nullptr);
    if (limits.addressSpaceBytes > 0) {
        const rlimit limit { rlim_t(limits.addressSpaceBytes), rlim_t(limits.addressSpaceBytes) };
        setrlimit(RLIMIT_AS, &limit);
    }
    for (int i = start; i < count; ++i) {
        writeLine("B " + QByteArray::number(i));
        alarm(limits.seconds);
        QString problem;
        try {
            problem = runCase(i);
        } catch (const std::exception& e) {
            problem = QStringLiteral("exception: %1").arg(QString::fromLocal8Bit(e.what()));
        } catch (...) {
            problem = QStringLiteral("exception of an unknown type");
        }
        if (!problem.isEmpty())
            writeLine("F " + QByteArray::number(i) + ' ' + problem.toUtf8().replace('\n', " | "));
    }
    writeLine("D");
    _exit(0);
}

QString demangledFrame(const QByteArray& line)
{
    // "module(symbol+0x1a) [0x...]" or "module(+0x1a) [0x...]"
    const qsizetype open = line.indexOf('(');
    const qsizetype plus = line.indexOf('+', open);
    const qsizetype close = line.indexOf(')', open);
    if (open < 0 || plus < 0 || close < 0)
        return QString::fromLocal8Bit(line);
    const QByteArray module = line.left(open);
    const QByteArray symbol = line.mid(open + 1, plus - open - 1);
    const QByteArray offset = line.mid(plus, close - plus);
    if (symbol.isEmpty()) {
        // A function the binary does not export (static, anonymous namespace): ask addr2line, when present.
        QProcess addr2line;
        addr2line.start(QStringLiteral("addr2line"),
                        { QStringLiteral("-C"), QStringLiteral("-f"), QStringLiteral("-e"),
                          QString::fromLocal8Bit(module), QString::fromLatin1(offset.mid(1)) });
        if (addr2line.waitForFinished(5000) && addr2line.exitCode() == 0) {
            const QString name
                = QString::fromLocal8Bit(addr2line.readAllStandardOutput()).section(QLatin1Char('\n'), 0, 0);
            if (!name.isEmpty() && !name.startsWith(QLatin1String("??")))
                return name;
        }
        return QString::fromLocal8Bit(module.mid(module.lastIndexOf('/') + 1) + offset);
    }
    int status = 0;
    char* demangled = abi::__cxa_demangle(symbol.constData(), nullptr, nullptr, &status);
    QString name = status == 0 && demangled ? QString::fromLocal8Bit(demangled) : QString::fromLocal8Bit(symbol);
    std::free(demangled);
    return name;
}

bool isRuntimeFrame(const QByteArray& line)
{
    static const char* const kRuntime[] = { "libc.so", "libstdc++.so", "libgcc_s.so", "linux-vdso", "ld-linux" };
    for (const char* runtime : kRuntime) {
        if (line.contains(runtime))
            return true;
    }
    return false;
}

QString signalName(int signal)
{
    switch (signal) {
    case SIGSEGV:
        return QStringLiteral("SIGSEGV");
    case SIGBUS:
        return QStringLiteral("SIGBUS");
    case SIGABRT:
        return QStringLiteral("SIGABRT (std::terminate or abort)");
    case SIGFPE:
        return QStringLiteral("SIGFPE");
    case SIGILL:
        return QStringLiteral("SIGILL");
    case SIGKILL:
        return QStringLiteral("SIGKILL (out of memory?)");
    case SIGTRAP:
        return QStringLiteral("SIGTRAP");
    default:
        return QStringLiteral("signal %1").arg(signal);
    }
}

} // namespace

ChildLimits defaultChildLimits()
{
    ChildLimits limits;
#ifdef RUNLENS_TRUST_ASAN
    limits.addressSpaceBytes = 0;
    limits.seconds *= 6;
#endif
    return limits;
}

BatchResult runIsolated(int count, const std::function<QString(int)>& runCase, const ChildLimits& limits,
                        int maxCrashes)
{
    BatchResult result;
    int start = 0;
    int crashes = 0;
    while (start < count) {
        int fds[2];
        if (::pipe2(fds, O_CLOEXEC) != 0) {
            result.failures.append(
                { -1, QStringLiteral("pipe() failed: %1").arg(QString::fromLocal8Bit(strerror(errno))), {} });
            return result;
        }
        const pid_t pid = ::fork();
        if (pid < 0) {
            ::close(fds[0]);
            ::close(fds[1]);
            result.failures.append({ -1, QStringLiteral("fork() failed"), {} });
            return result;
        }
        if (pid == 0) {
            ::close(fds[0]);
            g_reportFd = fds[1];
            runChild(start, count, runCase, limits);
        }
        ::close(fds[1]);
        QByteArray report;
        char buffer[65536];
        for (;;) {
            const ssize_t n = ::read(fds[0], buffer, sizeof(buffer));
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                break;
            report.append(buffer, n);
        }
        ::close(fds[0]);
        int status = 0;
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) { }

        int current = -1;
        int fatalSignal = 0;
        bool done = false;
        bool inStack = false;
        QStringList stack;
        int rawFrames = 0;
        for (const QByteArray& line : report.split('\n')) {
            if (inStack) {
                if (line == "E") {
                    inStack = false;
                } else if (rawFrames++ > 0 && !isRuntimeFrame(line) && stack.size() < 8) {
                    stack << demangledFrame(line); // frame 0 is the signal handler
                }
            } else if (line.startsWith("B ")) {
                current = line.mid(2).toInt();
            } else if (line.startsWith("F ")) {
                const qsizetype space = line.indexOf(' ', 2);
                result.failures.append({ line.mid(2, space - 2).toInt(), QString::fromUtf8(line.mid(space + 1)), {} });
            } else if (line.startsWith("S ")) {
                fatalSignal = line.mid(2).toInt();
                inStack = true;
            } else if (line == "D") {
                done = true;
            }
        }
        if (done && WIFEXITED(status) && WEXITSTATUS(status) == 0)
            break;
        if (WIFSIGNALED(status) && !fatalSignal)
            fatalSignal = WTERMSIG(status);
        const bool hang = fatalSignal == SIGALRM;
        QString what = hang ? QStringLiteral("hung: still running after %1 s").arg(limits.seconds)
            : fatalSignal   ? QStringLiteral("crashed: %1").arg(signalName(fatalSignal))
                            : QStringLiteral("child exited with status %1").arg(WEXITSTATUS(status));
        result.failures.append({ current, what, stack });
        if (current < 0 || ++crashes >= maxCrashes) {
            result.notRun = count - std::max(current + 1, start);
            break;
        }
        start = current + 1;
    }
    return result;
}

} // namespace runlens::test
