// Source lines of code addresses from the DWARF line tables (.debug_line) of the images this
// process has loaded.
//
// The toolchain's Runtime module answers the same question, but runs every line program of the
// image for each address it is asked about: in a test binary with three megabytes of line
// programs that is tens of milliseconds an address, and a recording that locates a few hundred
// closures spent seconds there. This reader indexes an image's sequences (one per function in
// Swift's output) the first time an address in it is asked about, and then runs only the one
// sequence that covers an address. It is C, not Swift, because the tracer's debug build (every
// test run) would otherwise interpret three megabytes of opcodes at -Onone speed.
//
// It reads ELF64 files with uncompressed DWARF 2 to 5 line tables; any other image answers
// "unknown", and the caller asks the Runtime module instead. Every read is bounds-checked: a
// truncated or hostile file gives "unknown", never a crash.
#define _GNU_SOURCE
#include "CTracingSupport.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct {
    const uint8_t *at, *end;
    bool bad;
} cursor;

static uint64_t take(cursor *c, size_t size) {
    if (c->bad || (size_t)(c->end - c->at) < size) {
        c->bad = true;
        return 0;
    }
    uint64_t value = 0;
    for (size_t i = 0; i < size; i++) value |= (uint64_t)c->at[i] << (8 * i);
    c->at += size;
    return value;
}

static uint64_t uleb(cursor *c) {
    uint64_t value = 0;
    for (unsigned shift = 0;; shift += 7) {
        uint8_t byte = (uint8_t)take(c, 1);
        if (c->bad) return 0;
        if (shift < 64) value |= (uint64_t)(byte & 0x7f) << shift;
        if (!(byte & 0x80)) return value;
    }
}

static int64_t sleb(cursor *c) {
    int64_t value = 0;
    unsigned shift = 0;
    uint8_t byte;
    do {
        byte = (uint8_t)take(c, 1);
        if (c->bad) return 0;
        if (shift < 64) value |= (int64_t)((uint64_t)(byte & 0x7f) << shift);
        shift += 7;
    } while (byte & 0x80);
    if (shift < 64 && (byte & 0x40)) value |= -((int64_t)1 << shift);
    return value;
}

static void skip(cursor *c, uint64_t size) {
    if (c->bad || (uint64_t)(c->end - c->at) < size) c->bad = true;
    else c->at += size;
}

// A NUL-terminated string in place, or NULL if it runs past the end.
static const char *string_at(cursor *c) {
    if (c->bad) return NULL;
    const uint8_t *nul = memchr(c->at, 0, (size_t)(c->end - c->at));
    if (nul == NULL) {
        c->bad = true;
        return NULL;
    }
    const char *s = (const char *)c->at;
    c->at = nul + 1;
    return s;
}

typedef struct {
    const uint8_t *start;
    size_t size;
} section;

static const char *string_in(section s, uint64_t offset) {
    if (s.start == NULL || offset >= s.size || memchr(s.start + offset, 0, s.size - offset) == NULL) return NULL;
    return (const char *)s.start + offset;
}

typedef struct {
    const char *name;
    uint64_t directory;
} file_entry;

typedef struct {
    uint16_t version;
    uint8_t address_size, minimum_instruction_length, default_is_stmt, line_range, opcode_base;
    int8_t line_base;
    const uint8_t *standard_opcode_lengths, *program_end;
    const char **directories;
    size_t directory_count;
    file_entry *files;
    size_t file_count;
} unit;

typedef struct {
    uint64_t low, high;
    const uint8_t *program;
    uint32_t unit;
} sequence;

struct image {
    uintptr_t bias;
    unit *units;
    size_t unit_count;
    sequence *sequences;
    size_t sequence_count;
};

// DWARF's numbers for what this reader needs: line program opcodes, forms and content types.
enum {
    DW_LNS_copy = 1, DW_LNS_advance_pc, DW_LNS_advance_line, DW_LNS_set_file, DW_LNS_set_column,
    DW_LNS_const_add_pc = 8, DW_LNS_fixed_advance_pc,
    DW_LNE_end_sequence = 1, DW_LNE_set_address,
    form_block = 0x09, form_data1 = 0x0b, form_data2 = 0x05, form_data4 = 0x06, form_data8 = 0x07, form_data16 = 0x1e,
    form_string = 0x08, form_strp = 0x0e, form_line_strp = 0x1f, form_udata = 0x0f,
    content_path = 1, content_directory_index = 2,
};

typedef struct {
    section line, line_str, str;
    bool offset64;
} strings;

// One attribute of a DWARF 5 directory or file entry: its string, if it is one, or its
// number. False for a form this reader does not know (the table cannot be read past it).
static bool read_form(cursor *c, uint64_t form, const strings *s, const char **text, uint64_t *number) {
    *text = NULL;
    *number = 0;
    switch (form) {
    case form_string: *text = string_at(c); break;
    case form_strp: *text = string_in(s->str, take(c, s->offset64 ? 8 : 4)); break;
    case form_line_strp: *text = string_in(s->line_str, take(c, s->offset64 ? 8 : 4)); break;
    case form_udata: *number = uleb(c); break;
    case form_data1: *number = take(c, 1); break;
    case form_data2: *number = take(c, 2); break;
    case form_data4: *number = take(c, 4); break;
    case form_data8: *number = take(c, 8); break;
    case form_data16: skip(c, 16); break;
    case form_block: skip(c, uleb(c)); break;
    default: return false;
    }
    return !c->bad;
}

// DWARF 5's directory and file tables: a list of (content, form) pairs, then the entries.
// Each entry's path goes to `names`, its directory index (files only) to `directories`.
static bool read_entries(cursor *c, const strings *s, const char ***names, uint64_t **directories, size_t *count) {
    uint8_t format_count = (uint8_t)take(c, 1);
    uint64_t formats[2 * 255];
    for (unsigned i = 0; i < format_count; i++) {
        formats[2 * i] = uleb(c);
        formats[2 * i + 1] = uleb(c);
    }
    uint64_t entries = uleb(c);
    if (c->bad || entries > (uint64_t)(c->end - c->at)) return false;
    *names = calloc(entries ? entries : 1, sizeof **names);
    *directories = calloc(entries ? entries : 1, sizeof **directories);
    if (*names == NULL || *directories == NULL) return false;
    *count = entries;
    for (uint64_t e = 0; e < entries; e++) {
        for (unsigned i = 0; i < format_count; i++) {
            const char *text;
            uint64_t number;
            if (!read_form(c, formats[2 * i + 1], s, &text, &number)) return false;
            if (formats[2 * i] == content_path) (*names)[e] = text;
            if (formats[2 * i] == content_directory_index) (*directories)[e] = number;
        }
    }
    return true;
}

typedef struct {
    uint64_t address, line, column, file;
    bool end_sequence;
} row;

typedef struct {
    const unit *u;
    cursor c;
    row state;
} machine;

static void restart(machine *m) {
    m->state = (row){ .line = 1, .file = 1 };
}

// Runs the program to its next row; false at the end of the program or at bad input.
static bool next_row(machine *m) {
    const unit *u = m->u;
    cursor *c = &m->c;
    while (!c->bad && c->at < c->end) {
        uint8_t opcode = (uint8_t)take(c, 1);
        if (opcode >= u->opcode_base) {
            uint8_t adjusted = opcode - u->opcode_base;
            m->state.address += (uint64_t)(adjusted / u->line_range) * u->minimum_instruction_length;
            m->state.line += (uint64_t)(int64_t)(u->line_base + adjusted % u->line_range);
            return true;
        }
        switch (opcode) {
        case 0: {
            uint64_t length = uleb(c);
            if (c->bad || length == 0 || length > (uint64_t)(c->end - c->at)) return false;
            const uint8_t *after = c->at + length;
            uint8_t sub = (uint8_t)take(c, 1);
            if (sub == DW_LNE_end_sequence) {
                m->state.end_sequence = true;
                c->at = after;
                return true;
            }
            if (sub == DW_LNE_set_address) m->state.address = take(c, length - 1 < 8 ? length - 1 : 8);
            c->at = after;
            break;
        }
        case DW_LNS_copy: return true;
        case DW_LNS_advance_pc: m->state.address += uleb(c) * u->minimum_instruction_length; break;
        case DW_LNS_advance_line: m->state.line += (uint64_t)sleb(c); break;
        case DW_LNS_set_file: m->state.file = uleb(c); break;
        case DW_LNS_set_column: m->state.column = uleb(c); break;
        case DW_LNS_const_add_pc:
            m->state.address += (uint64_t)((255 - u->opcode_base) / u->line_range) * u->minimum_instruction_length;
            break;
        case DW_LNS_fixed_advance_pc: m->state.address += take(c, 2); break;
        default:
            // Unknown standard opcodes say how many LEB128 operands they take.
            for (uint8_t i = 0; i < u->standard_opcode_lengths[opcode - 1]; i++) uleb(c);
        }
    }
    return false;
}

// Reads one unit's header at `c` (its length already read) into `u`.
static bool read_header(cursor *c, bool offset64, const strings *s, unit *u) {
    u->version = (uint16_t)take(c, 2);
    if (u->version < 2 || u->version > 5) return false;
    if (u->version >= 5) {
        u->address_size = (uint8_t)take(c, 1);
        take(c, 1);
    }
    uint64_t header_length = take(c, offset64 ? 8 : 4);
    if (c->bad || header_length > (uint64_t)(c->end - c->at)) return false;
    cursor program = { c->at + header_length, c->end, false };
    u->minimum_instruction_length = (uint8_t)take(c, 1);
    if (u->version >= 4) take(c, 1);
    u->default_is_stmt = (uint8_t)take(c, 1);
    u->line_base = (int8_t)take(c, 1);
    u->line_range = (uint8_t)take(c, 1);
    u->opcode_base = (uint8_t)take(c, 1);
    if (c->bad || u->line_range == 0 || u->opcode_base == 0) return false;
    u->standard_opcode_lengths = c->at;
    skip(c, u->opcode_base - 1u);
    if (u->version >= 5) {
        uint64_t *unused = NULL, *directories = NULL;
        const char **file_names = NULL;
        bool read = read_entries(c, s, &u->directories, &unused, &u->directory_count)
            && read_entries(c, s, &file_names, &directories, &u->file_count);
        free(unused);
        if (read && (u->files = calloc(u->file_count ? u->file_count : 1, sizeof *u->files))) {
            for (size_t i = 0; i < u->file_count; i++) u->files[i] = (file_entry){ file_names[i], directories[i] };
        }
        free(file_names);
        free(directories);
        if (!read || u->files == NULL) return false;
    } else {
        // Directory 0 is the unit's own (not in the table); files count from 1.
        size_t capacity = 16;
        u->directories = calloc(capacity, sizeof *u->directories);
        u->directory_count = 1;
        for (const char *d; u->directories && (d = string_at(c)) && *d;) {
            if (u->directory_count == capacity) {
                const char **grown = realloc(u->directories, (capacity *= 2) * sizeof *grown);
                if (grown == NULL) return false;
                u->directories = grown;
            }
            u->directories[u->directory_count++] = d;
        }
        capacity = 16;
        u->files = calloc(capacity, sizeof *u->files);
        u->file_count = 1;
        for (const char *f; u->files && (f = string_at(c)) && *f;) {
            uint64_t directory = uleb(c);
            uleb(c);
            uleb(c);
            if (u->file_count == capacity) {
                file_entry *grown = realloc(u->files, (capacity *= 2) * sizeof *grown);
                if (grown == NULL) return false;
                u->files = grown;
            }
            u->files[u->file_count++] = (file_entry){ f, directory };
        }
        if (u->directories == NULL || u->files == NULL) return false;
    }
    if (c->bad) return false;
    *c = program;
    return true;
}

static int by_low(const void *a, const void *b) {
    uint64_t x = ((const sequence *)a)->low, y = ((const sequence *)b)->low;
    return x < y ? -1 : x > y;
}

static bool add_sequence(struct image *image, size_t *capacity, sequence s) {
    if (image->sequence_count == *capacity) {
        size_t grown_capacity = *capacity ? 2 * *capacity : 1024;
        sequence *grown = realloc(image->sequences, grown_capacity * sizeof *grown);
        if (grown == NULL) return false;
        image->sequences = grown;
        *capacity = grown_capacity;
    }
    image->sequences[image->sequence_count++] = s;
    return true;
}

// Every unit's header, and every sequence's address range, of the line tables in `s`.
static bool index_units(struct image *image, const strings *s) {
    size_t unit_capacity = 0, sequence_capacity = 0;
    cursor all = { s->line.start, s->line.start + s->line.size, false };
    while (!all.bad && all.at < all.end) {
        uint64_t length = take(&all, 4);
        bool offset64 = length == 0xffffffff;
        if (offset64) length = take(&all, 8);
        if (all.bad || length > (uint64_t)(all.end - all.at)) return false;
        cursor c = { all.at, all.at + length, false };
        all.at += length;
        if (image->unit_count == unit_capacity) {
            unit_capacity = unit_capacity ? 2 * unit_capacity : 64;
            unit *grown = realloc(image->units, unit_capacity * sizeof *grown);
            if (grown == NULL) return false;
            image->units = grown;
        }
        unit *u = &image->units[image->unit_count];
        *u = (unit){ 0 };
        strings in_unit = *s;
        in_unit.offset64 = offset64;
        if (!read_header(&c, offset64, &in_unit, u)) {
            free(u->directories);
            free(u->files);
            continue;
        }
        u->program_end = c.end;
        image->unit_count++;
        machine m = { u, c, { 0 } };
        restart(&m);
        const uint8_t *start = m.c.at;
        uint64_t low = UINT64_MAX;
        while (next_row(&m)) {
            if (!m.state.end_sequence) {
                if (m.state.address < low) low = m.state.address;
                continue;
            }
            // A function the linker dropped keeps its rows at address 0 (or a tombstone):
            // they cover nothing.
            if (low != 0 && low != UINT64_MAX && m.state.address > low && m.state.address < UINT64_MAX - 1
                && !add_sequence(image, &sequence_capacity,
                    (sequence){ low, m.state.address, start, (uint32_t)(image->unit_count - 1) }))
                return false;
            restart(&m);
            start = m.c.at;
            low = UINT64_MAX;
        }
    }
    qsort(image->sequences, image->sequence_count, sizeof *image->sequences, by_low);
    return true;
}

static section find_section(const uint8_t *file, size_t size, const Elf64_Shdr *sections, size_t count,
    const Elf64_Shdr *names, const char *wanted, bool *compressed) {
    for (size_t i = 0; i < count; i++) {
        const Elf64_Shdr *h = &sections[i];
        if (h->sh_name >= names->sh_size) continue;
        const char *name = (const char *)file + names->sh_offset + h->sh_name;
        size_t room = names->sh_size - h->sh_name;
        if (strnlen(name, room) == room || strcmp(name, wanted) != 0) continue;
        if (h->sh_type == SHT_NOBITS || h->sh_offset > size || h->sh_size > size - h->sh_offset) return (section){ 0 };
        if (h->sh_flags & SHF_COMPRESSED) *compressed = true;
        return (section){ file + h->sh_offset, h->sh_size };
    }
    return (section){ 0 };
}

// The line tables of the ELF file at `path`, loaded at `bias`; NULL if it has none this
// reader can read. The file stays mapped for the life of the process: the strings it hands
// out point into it.
static struct image *open_image(const char *path, uintptr_t bias) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return NULL;
    struct stat st;
    void *mapped = MAP_FAILED;
    if (fstat(fd, &st) == 0 && st.st_size >= (off_t)sizeof(Elf64_Ehdr))
        mapped = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (mapped == MAP_FAILED) return NULL;
    const uint8_t *file = mapped;
    size_t size = (size_t)st.st_size;
    const Elf64_Ehdr *header = mapped;
    struct image *image = NULL;
    if (memcmp(header->e_ident, ELFMAG, SELFMAG) != 0 || header->e_ident[EI_CLASS] != ELFCLASS64
        || header->e_ident[EI_DATA] != ELFDATA2LSB || header->e_shentsize != sizeof(Elf64_Shdr)
        || header->e_shoff > size)
        goto fail;
    const Elf64_Shdr *sections = (const Elf64_Shdr *)(file + header->e_shoff);
    size_t count = header->e_shnum, names_index = header->e_shstrndx;
    if (count == 0 && header->e_shoff + sizeof(Elf64_Shdr) <= size) count = sections[0].sh_size;
    if (names_index == SHN_XINDEX && header->e_shoff + sizeof(Elf64_Shdr) <= size) names_index = sections[0].sh_link;
    if (count > (size - header->e_shoff) / sizeof(Elf64_Shdr) || names_index >= count) goto fail;
    const Elf64_Shdr *names = &sections[names_index];
    if (names->sh_offset > size || names->sh_size > size - names->sh_offset) goto fail;
    bool compressed = false;
    strings s = {
        find_section(file, size, sections, count, names, ".debug_line", &compressed),
        find_section(file, size, sections, count, names, ".debug_line_str", &compressed),
        find_section(file, size, sections, count, names, ".debug_str", &compressed),
        false,
    };
    if (s.line.start == NULL || compressed) goto fail;
    image = calloc(1, sizeof *image);
    if (image == NULL) goto fail;
    image->bias = bias;
    if (index_units(image, &s)) return image;
fail:
    if (image) {
        for (size_t i = 0; i < image->unit_count; i++) {
            free(image->units[i].directories);
            free(image->units[i].files);
        }
        free(image->units);
        free(image->sequences);
        free(image);
    }
    munmap(mapped, size);
    return NULL;
}

// Images looked at so far, by load bias; `tables` is NULL for one that cannot be read.
static struct {
    uintptr_t bias;
    struct image *tables;
} *images;
static size_t image_count, image_capacity;
static pthread_mutex_t images_lock = PTHREAD_MUTEX_INITIALIZER;

static struct image *image_of(uintptr_t address) {
    Dl_info info;
    struct link_map *map = NULL;
    if (dladdr1((void *)address, &info, (void **)&map, RTLD_DL_LINKMAP) == 0 || map == NULL) return NULL;
    pthread_mutex_lock(&images_lock);
    struct image *found = NULL;
    bool known = false;
    for (size_t i = 0; i < image_count && !known; i++) {
        if (images[i].bias == map->l_addr) {
            known = true;
            found = images[i].tables;
        }
    }
    if (!known && image_count == image_capacity) {
        size_t capacity = image_capacity ? 2 * image_capacity : 16;
        void *grown = realloc(images, capacity * sizeof *images);
        if (grown) {
            images = grown;
            image_capacity = capacity;
        }
    }
    if (!known && image_count < image_capacity) {
        // The executable's link map has no name.
        found = open_image(map->l_name && *map->l_name ? map->l_name : "/proc/self/exe", map->l_addr);
        images[image_count++] = (typeof(*images)){ map->l_addr, found };
    }
    pthread_mutex_unlock(&images_lock);
    return found;
}

// The sequence (a function, in Swift's output) covering `address`, its unit, and the
// address relative to the image.
static const sequence *sequence_of(uintptr_t address, const unit **u, uint64_t *at) {
    struct image *image = image_of(address);
    if (image == NULL) return NULL;
    *at = address - image->bias;
    // The last sequence that starts at or before the address.
    size_t low = 0, high = image->sequence_count;
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        if (image->sequences[middle].low <= *at) low = middle + 1;
        else high = middle;
    }
    if (low == 0 || *at >= image->sequences[low - 1].high) return NULL;
    const sequence *s = &image->sequences[low - 1];
    *u = &image->units[s->unit];
    return s;
}

// The file numbered `file` in `u`, as a source line without a line; false if there is none.
static bool file_of(const unit *u, uint64_t file, signalscope_source_line_t *line) {
    // DWARF 5 numbers files from 0, earlier versions from 1 (0 is no file).
    if (file >= u->file_count || (u->version < 5 && file == 0) || u->files[file].name == NULL) return false;
    const file_entry *entry = &u->files[file];
    *line = (signalscope_source_line_t){
        .name = entry->name,
        .directory = entry->directory < u->directory_count ? u->directories[entry->directory] : NULL,
        .unit_directory = u->version >= 5 && u->directory_count > 0 ? u->directories[0] : NULL,
    };
    return true;
}

bool signalscope_source_line(uintptr_t address, signalscope_source_line_t *line) {
    const unit *u;
    uint64_t at;
    const sequence *s = sequence_of(address, &u, &at);
    if (s == NULL) return false;
    machine m = { u, { s->program, u->program_end, false }, { 0 } };
    restart(&m);
    row previous = { 0 };
    bool started = false;
    while (next_row(&m)) {
        if (started && previous.address <= at && at < m.state.address) {
            if (!file_of(u, previous.file, line)) return false;
            line->line = previous.line;
            line->column = previous.column;
            return true;
        }
        if (m.state.end_sequence) return false;
        previous = m.state;
        started = true;
    }
    return false;
}

size_t signalscope_source_files_of_function(uintptr_t address, signalscope_source_line_t *files, size_t capacity) {
    const unit *u;
    uint64_t at;
    const sequence *s = sequence_of(address, &u, &at);
    if (s == NULL) return 0;
    machine m = { u, { s->program, u->program_end, false }, { 0 } };
    restart(&m);
    uint64_t seen[64];
    size_t count = 0;
    while (next_row(&m) && !m.state.end_sequence) {
        if (m.state.line == 0) continue;
        bool known = false;
        for (size_t i = 0; i < count && i < 64 && !known; i++) known = seen[i] == m.state.file;
        if (known) continue;
        if (count < 64) seen[count] = m.state.file;
        if (count < capacity && !file_of(u, m.state.file, &files[count])) files[count] = (signalscope_source_line_t){ 0 };
        count++;
    }
    return count;
}
