#include "AssemblageShims.h"
#include <pthread.h>

static _Thread_local void *asm_state = 0;
static pthread_key_t asm_key;
static pthread_once_t asm_key_once = PTHREAD_ONCE_INIT;
static void (*asm_destructor)(void *) = 0;

static void asm_run_destructor(void *value) {
    asm_state = 0;
    if (value && asm_destructor) asm_destructor(value);
}

static void asm_make_key(void) { pthread_key_create(&asm_key, asm_run_destructor); }

void *_asm_thread_state(void) { return asm_state; }

void _asm_set_thread_state(void *value, void (*destructor)(void *)) {
    pthread_once(&asm_key_once, asm_make_key);
    asm_destructor = destructor;
    asm_state = value;
    pthread_setspecific(asm_key, value);
}
