# Sourced by install-bench and stream-bench: one fresh, journaled ext4 file system per timed command.
#
# On a reused file system the numbers measure ext4's after-delete slowdown (the recently-deleted inode check made a
# 60k-file extraction take 11–22 s right after a delete) and whatever the previous run left dirty, not the command.
# So every command gets its own image: `mkfs.ext4` (inode tables and journal initialised up front, so no lazy-init
# thread writes behind the run), loop-mounted, holding everything the command writes (docsync's root, staging and
# state; tar's and curl's output alike); unmounted and deleted after the run, untimed. Needs root.
#
#   fresh_fs_mount DIR       creates DIR/img, formats and mounts it at DIR/mnt (prints nothing)
#   fresh_fs_unmount DIR     unmounts DIR/mnt and deletes the image
# env: FS_SIZE (default 4G), FS_INODES (default 600000: a 150k-entry docset twice over)

fresh_fs_mount() {
    local dir=$1
    mkdir -p "$dir/mnt"
    rm -f "$dir/img"
    truncate -s "${FS_SIZE:-4G}" "$dir/img"
    mkfs.ext4 -q -F -N "${FS_INODES:-600000}" -E lazy_itable_init=0,lazy_journal_init=0 "$dir/img"
    mount -o loop "$dir/img" "$dir/mnt"
}

fresh_fs_unmount() {
    local dir=$1
    umount "$dir/mnt"
    rm -f "$dir/img"
}

# The load average now, for the results ("load 1.23 0.98 0.75").
load_average() { echo "load $(cut -d' ' -f1-3 /proc/loadavg)"; }
