/*
 * data_utils.h: the host helpers of pipev's vendor-layout sample (written for pipev): read and
 * write raw little-endian files, check acl return codes.
 */
#ifndef PROJECT_DATA_UTILS_H
#define PROJECT_DATA_UTILS_H
#include <cstdint>
#include <cstdio>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define INFO_LOG(fmt, args...) fprintf(stdout, "[INFO]  " fmt "\n", ##args)
#define ERROR_LOG(fmt, args...) fprintf(stderr, "[ERROR]  " fmt "\n", ##args)

#define CHECK_ACL(x)                                                                      \
    do {                                                                                  \
        aclError __ret = x;                                                               \
        if (__ret != ACL_ERROR_NONE) {                                                    \
            std::cerr << __FILE__ << ":" << __LINE__ << " aclError:" << __ret << std::endl; \
        }                                                                                 \
    } while (0);

#include <iostream>

inline bool ReadFile(const std::string &filePath, size_t fileSize, void *buffer, size_t bufferSize)
{
    struct stat sBuf;
    if (stat(filePath.c_str(), &sBuf) == -1 || !S_ISREG(sBuf.st_mode)) {
        ERROR_LOG("%s is not a file", filePath.c_str());
        return false;
    }
    int fd = open(filePath.c_str(), O_RDONLY);
    if (fd < 0) {
        ERROR_LOG("cannot open %s", filePath.c_str());
        return false;
    }
    size_t want = fileSize < bufferSize ? fileSize : bufferSize;
    ssize_t got = read(fd, buffer, want);
    close(fd);
    return got == ssize_t(want);
}

inline bool WriteFile(const std::string &filePath, const void *buffer, size_t size)
{
    int fd = open(filePath.c_str(), O_RDWR | O_CREAT | O_TRUNC, S_IRUSR | S_IWUSR);
    if (fd < 0) {
        ERROR_LOG("cannot open %s", filePath.c_str());
        return false;
    }
    ssize_t written = write(fd, buffer, size);
    close(fd);
    return written == ssize_t(size);
}
#endif
