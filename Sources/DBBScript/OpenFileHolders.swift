import Foundation

/// Which processes have a file open, as Linux's `/proc/PID/fd` tells: the one way to see a
/// connection that holds no lock (an idle rollback-journal connection). Processes whose
/// descriptors this user may not read are not seen; where `/proc` does not exist, nothing is.
enum OpenFileHolders {
    /// The other processes with the file at `path` open, and how many descriptors of this
    /// process point at it.
    static func holders(of path: String) -> (others: [Int32], own: Int) {
        var target = stat()
        guard stat(path, &target) == 0, let processes = opendir("/proc") else { return ([], 0) }
        defer { closedir(processes) }
        let me = getpid()
        var others: [Int32] = []
        var own = 0
        while let process = readdir(processes) {
            guard let pid = Int32(name(of: process)) else { continue }
            let folder = "/proc/\(pid)/fd"
            guard let descriptors = opendir(folder) else { continue }
            defer { closedir(descriptors) }
            var count = 0
            while let descriptor = readdir(descriptors) {
                let entry = name(of: descriptor)
                guard entry != ".", entry != ".." else { continue }
                var status = stat()
                if stat("\(folder)/\(entry)", &status) == 0, status.st_dev == target.st_dev,
                    status.st_ino == target.st_ino
                {
                    count += 1
                }
            }
            if pid == me { own = count } else if count > 0 { others.append(pid) }
        }
        return (others, own)
    }

    private static func name(of entry: UnsafeMutablePointer<dirent>) -> String {
        withUnsafePointer(to: &entry.pointee.d_name) {
            String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
        }
    }
}
