variable "cfg" {
type = object({
name = string
port = optional(number, 80)
})
default = {}
}
